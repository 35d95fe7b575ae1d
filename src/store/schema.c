/*
 * schema.c - the store's schema, as the migrations that build it: entry v
 * takes a database from PRAGMA user_version v to v + 1.  These are
 * constant SQL texts without values; each runs inside one transaction
 * together with the user_version update (db.c: migrate()).
 */
#include "store/db.h"

const char *const store_migrations[] = {
	/* 0 -> 1: initial schema */
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  started_ns INTEGER NOT NULL,"
	"  finished_ns INTEGER,"
	"  tag TEXT NOT NULL DEFAULT '',"
	"  host TEXT NOT NULL DEFAULT '',"
	"  boot_id TEXT NOT NULL DEFAULT '',"
	"  tool_version TEXT NOT NULL DEFAULT '',"
	"  build_flavour TEXT NOT NULL DEFAULT '',"
	"  cmdline TEXT,"
	"  status TEXT NOT NULL CHECK (status IN"
	"    ('running', 'complete', 'interrupted', 'failed')));"
	"CREATE TABLE environment ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL,"
	"  value TEXT NOT NULL,"
	"  PRIMARY KEY (run_id, key));"
	"CREATE TABLE results ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  workload TEXT NOT NULL,"
	"  params TEXT NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  direction INTEGER NOT NULL CHECK (direction IN (-1, 0, 1)),"
	"  info TEXT,"
	"  UNIQUE (run_id, seq));"
	"CREATE TABLE samples ("
	"  result_id INTEGER NOT NULL REFERENCES results(id)"
	"    ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  value REAL NOT NULL,"
	"  PRIMARY KEY (result_id, idx));"
	"CREATE TABLE histograms ("
	"  result_id INTEGER NOT NULL REFERENCES results(id)"
	"    ON DELETE CASCADE,"
	"  lo INTEGER NOT NULL,"
	"  hi INTEGER NOT NULL,"
	"  count INTEGER NOT NULL,"
	"  PRIMARY KEY (result_id, lo));"
	"CREATE INDEX runs_started ON runs(started_ns);"
	"CREATE INDEX results_workload ON results(workload, metric);",
	/*
	 * 1 -> 2: the run options as typed columns (they were environment
	 * strings run.*: copied over, then removed from the environment).
	 * hist and perf_counters were not recorded before: NULL.  pid: the
	 * process that measures the run, so that a run left 'running' by a
	 * process that no longer exists can be marked interrupted.  uuid: a
	 * globally unique id (128 random bits in hex), by which a run moved
	 * between databases (export/import, push) is the same run.
	 * group_id: the runs of one `run --runs N` share it.
	 */
	"ALTER TABLE runs ADD COLUMN reps INTEGER;"
	"ALTER TABLE runs ADD COLUMN sample_time_ns INTEGER;"
	"ALTER TABLE runs ADD COLUMN warmup_ns INTEGER;"
	"ALTER TABLE runs ADD COLUMN cpus TEXT;"
	"ALTER TABLE runs ADD COLUMN hist INTEGER;"
	"ALTER TABLE runs ADD COLUMN interleave_seed TEXT;"
	"ALTER TABLE runs ADD COLUMN perf_counters INTEGER;"
	"ALTER TABLE runs ADD COLUMN pid INTEGER;"
	"ALTER TABLE runs ADD COLUMN uuid TEXT;"
	"UPDATE runs SET uuid = lower(hex(randomblob(16)));"
	"CREATE UNIQUE INDEX runs_uuid ON runs(uuid);"
	"ALTER TABLE runs ADD COLUMN group_id TEXT;"
	"UPDATE runs SET"
	"  reps = (SELECT CAST(value AS INTEGER) FROM environment e"
	"    WHERE e.run_id = runs.id AND e.key = 'run.reps'),"
	"  sample_time_ns = (SELECT CAST(value AS INTEGER) FROM environment e"
	"    WHERE e.run_id = runs.id AND e.key = 'run.sample_time_ns'),"
	"  warmup_ns = (SELECT CAST(value AS INTEGER) FROM environment e"
	"    WHERE e.run_id = runs.id AND e.key = 'run.warmup_ns'),"
	"  cpus = (SELECT value FROM environment e"
	"    WHERE e.run_id = runs.id AND e.key = 'run.cpus'),"
	"  interleave_seed = (SELECT value FROM environment e"
	"    WHERE e.run_id = runs.id AND e.key = 'run.interleave_seed');"
	"DELETE FROM environment WHERE key IN ('run.reps',"
	"  'run.sample_time_ns', 'run.warmup_ns', 'run.cpus',"
	"  'run.interleave_seed');",
};

_Static_assert(sizeof(store_migrations) / sizeof(store_migrations[0]) ==
	       STORE_SCHEMA_VERSION, "one migration per schema version");

const char *const store_run_statuses[] = {
	"running", "complete", "interrupted", "failed",
};

const size_t store_nrun_statuses =
	sizeof(store_run_statuses) / sizeof(store_run_statuses[0]);
