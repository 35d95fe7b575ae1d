/*
 * usyms.c - this binary's function symbols and this process's executable
 * mappings, to name the profile's user frames (see usyms.h).  The ELF
 * file is read through /proc/self/exe (the running binary even when the
 * file was replaced since), its .symtab, else its .dynsym; an address of
 * the binary's mapping is turned into the ELF's virtual address through
 * the PT_LOAD header that holds its file offset, so PIE and non-PIE
 * builds alike.
 */
#include "kernel/usyms.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct usym {
	uint64_t addr, size;
	char *name;
};

struct umap {
	uint64_t start, end, offset;
	uint64_t dev, ino;	/* the file mapped */
	bool exe;		/* a mapping of this binary */
	char *file;		/* the basename of its path */
};

struct uload {
	uint64_t offset, vaddr, filesz;
};

struct usyms {
	struct usym *sym;
	size_t nsym;
	struct umap *map;
	size_t nmap;
	struct uload *load;
	size_t nload;
};

void usyms_free(struct usyms *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->nsym; i++)
		free(u->sym[i].name);
	for (i = 0; i < u->nmap; i++)
		free(u->map[i].file);
	free(u->sym);
	free(u->map);
	free(u->load);
	free(u);
}

static int cmp_sym(const void *a, const void *b)
{
	const struct usym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/*
 * The executable mappings of /proc/self/maps; the binary's are those of
 * the file that holds this function's code.  Not a stat of /proc/self/exe:
 * under qemu-user that is the emulator, while the maps are the guest's.
 */
static int read_maps(struct usyms *u, char *err, size_t errlen)
{
	const uint64_t self = (uint64_t)(uintptr_t)&read_maps;
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4096];
	size_t cap = 0, i, k;

	if (!f) {
		snprintf(err, errlen, "/proc/self/maps: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct umap *m;
		const char *base;
		char *p = line, *path;
		uint64_t start, end, off, inode;
		unsigned long maj, min;
		bool x;

		/* start-end perms offset major:minor inode [path] */
		start = strtoull(p, &p, 16);
		if (*p++ != '-')
			continue;
		end = strtoull(p, &p, 16);
		p += strspn(p, " ");
		x = strlen(p) > 4 && p[2] == 'x';
		p += strcspn(p, " ");
		off = strtoull(p, &p, 16);
		maj = strtoul(p, &p, 16);
		if (*p++ != ':')
			continue;
		min = strtoul(p, &p, 16);
		inode = strtoull(p, &p, 10);
		path = p + strspn(p, " ");
		path[strcspn(path, "\n")] = '\0';
		if (!x)
			continue;
		if (u->nmap == cap) {
			void *t = realloc(u->map, (cap ? cap * 2 : 16) *
					  sizeof(*u->map));

			if (!t)
				goto nomem;
			u->map = t;
			cap = cap ? cap * 2 : 16;
		}
		base = strrchr(path, '/');
		base = base ? base + 1 : path;
		m = &u->map[u->nmap];
		m->start = start;
		m->end = end;
		m->offset = off;
		m->dev = (uint64_t)makedev((unsigned)maj, (unsigned)min);
		m->ino = inode;
		m->exe = false;
		m->file = strdup(*base ? base : "[anon]");
		if (!m->file)
			goto nomem;
		u->nmap++;
	}
	fclose(f);
	for (i = 0; i < u->nmap; i++)
		if (self >= u->map[i].start && self < u->map[i].end &&
		    u->map[i].ino)
			break;
	for (k = 0; i < u->nmap && k < u->nmap; k++)
		u->map[k].exe = u->map[k].dev == u->map[i].dev &&
				u->map[k].ino == u->map[i].ino;
	return 0;
nomem:
	fclose(f);
	snprintf(err, errlen, "reading /proc/self/maps: %s", strerror(ENOMEM));
	return -1;
}

/* The function symbols of section scn (of type SHT_SYMTAB or DYNSYM). */
static int read_symbols(struct usyms *u, Elf *e, Elf_Scn *scn,
			const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	void *t;

	if (!d || !n)
		return 0;
	t = realloc(u->sym, (u->nsym + n) * sizeof(*u->sym));
	if (!t)
		return -1;
	u->sym = t;
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(d, (int)i, &s) ||
		    GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_value)
			continue;
		name = elf_strptr(e, sh->sh_link, s.st_name);
		if (!name || !*name)
			continue;
		u->sym[u->nsym].addr = s.st_value;
		u->sym[u->nsym].size = s.st_size;
		u->sym[u->nsym].name = strdup(name);
		if (!u->sym[u->nsym].name)
			return -1;
		u->nsym++;
	}
	return 0;
}

/* The binary's PT_LOAD headers and function symbols. */
static int read_elf(struct usyms *u, char *err, size_t errlen)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr sh, dynsh;
	size_t i, nph = 0;
	bool symtab = false;
	Elf *e;
	int rc = -1;

	if (fd < 0) {
		snprintf(err, errlen, "/proc/self/exe: %s", strerror(errno));
		return -1;
	}
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    !(e = elf_begin(fd, ELF_C_READ, NULL))) {
		snprintf(err, errlen, "/proc/self/exe: %s", elf_errmsg(-1));
		close(fd);
		return -1;
	}
	if (elf_getphdrnum(e, &nph) != 0)
		nph = 0;
	u->load = calloc(nph ? nph : 1, sizeof(*u->load));
	if (!u->load)
		goto nomem;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD) {
			u->load[u->nload].offset = ph.p_offset;
			u->load[u->nload].vaddr = ph.p_vaddr;
			u->load[u->nload].filesz = ph.p_filesz;
			u->nload++;
		}
	}
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			if (read_symbols(u, e, scn, &sh) != 0)
				goto nomem;
			symtab = true;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dyn = scn;
			dynsh = sh;
		}
	}
	/* stripped: its dynamic symbols, else the file names its frames */
	if (!symtab && dyn && read_symbols(u, e, dyn, &dynsh) != 0)
		goto nomem;
	if (u->nsym)
		qsort(u->sym, u->nsym, sizeof(*u->sym), cmp_sym);
	rc = 0;
	goto out;
nomem:
	snprintf(err, errlen, "reading /proc/self/exe: %s", strerror(ENOMEM));
out:
	elf_end(e);
	close(fd);
	return rc;
}

struct usyms *usyms_load(char *err, size_t errlen)
{
	struct usyms *u = calloc(1, sizeof(*u));

	if (!u) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	if (read_maps(u, err, errlen) != 0 ||
	    read_elf(u, err, errlen) != 0) {
		usyms_free(u);
		return NULL;
	}
	return u;
}

/* The function of the binary at its virtual address va, or NULL. */
static const char *func_at(const struct usyms *u, uint64_t va)
{
	size_t lo = 0, hi = u->nsym;

	while (lo < hi) {		/* the last symbol at or below va */
		size_t mid = lo + (hi - lo) / 2;

		if (u->sym[mid].addr <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	lo--;
	/* a symbol without a size holds up to the next one */
	if (u->sym[lo].size && va - u->sym[lo].addr >= u->sym[lo].size)
		return NULL;
	return u->sym[lo].name;
}

const char *usyms_name(const struct usyms *u, uint64_t ip)
{
	size_t i, k;

	for (i = 0; u && i < u->nmap; i++) {
		const struct umap *m = &u->map[i];
		uint64_t off;

		if (ip < m->start || ip >= m->end)
			continue;
		if (!m->exe)
			return m->file;
		off = ip - m->start + m->offset;
		for (k = 0; k < u->nload; k++)
			if (off >= u->load[k].offset &&
			    off - u->load[k].offset < u->load[k].filesz) {
				const char *f = func_at(u, off -
					u->load[k].offset + u->load[k].vaddr);

				return f ? f : m->file;
			}
		return m->file;
	}
	return NULL;
}
