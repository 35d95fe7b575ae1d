/*
 * bpf_msg.h - libbpf's messages, kept to say why loading a BPF program
 * failed (the kernel views' backend, observe): libbpf prints through one
 * callback for the whole process, so there is one keeper.
 */
#ifndef COPYSCOPE_KERNEL_BPF_MSG_H
#define COPYSCOPE_KERNEL_BPF_MSG_H

/*
 * Route libbpf's warnings and information into the keeper: nothing is
 * printed unless COPYSCOPE_BPF_DEBUG is set (then each on stderr).
 */
void kbpf_keep_messages(void);

/* Forget the kept message (before a step whose failure it should explain). */
void kbpf_clear_message(void);

/* libbpf's last warning since kbpf_clear_message(), trailing blanks cut;
   "" when none. */
const char *kbpf_message(void);

#endif
