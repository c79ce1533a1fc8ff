/* fiber_x86_64.S - the emulator's context switch between CUDA-thread fibers
 * (x86-64, System V ABI).
 *
 * void cugrade_fiber_switch(void **save_sp, void *next_sp)
 *   Saves the callee-saved state of the caller (rbp, rbx, r12-r15, the
 *   MXCSR and the x87 control word) on its own stack, stores the stack
 *   pointer in *save_sp, loads next_sp and restores the same state from
 *   there. No system call, no signal mask: a switch is a few dozen cycles.
 *
 * Frame at a saved stack pointer, low to high:
 *   [0] mxcsr (4 bytes), x87 control word (2 bytes), padding
 *   [8] r15  [16] r14  [24] r13  [32] r12  [40] rbx  [48] rbp  [56] return address
 * A new fiber's frame (emu/src/fiber.cpp) returns into cugrade_fiber_start. */

    .text
    .globl  cugrade_fiber_switch
    .type   cugrade_fiber_switch, @function
    .p2align 4
cugrade_fiber_switch:
    pushq   %rbp
    pushq   %rbx
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    subq    $8, %rsp
    stmxcsr (%rsp)
    fnstcw  4(%rsp)
    movq    %rsp, (%rdi)
    movq    %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw   4(%rsp)
    addq    $8, %rsp
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbx
    popq    %rbp
    ret
    .size   cugrade_fiber_switch, .-cugrade_fiber_switch

/* First code a fiber runs: the stack pointer is 16-byte aligned here, so the
 * call leaves cugrade_fiber_main's frame as the ABI expects. That function
 * never returns (a finished fiber switches away for good). */
    .globl  cugrade_fiber_start
    .type   cugrade_fiber_start, @function
    .p2align 4
cugrade_fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    xorl    %ebp, %ebp
    call    cugrade_fiber_main
    ud2
    .cfi_endproc
    .size   cugrade_fiber_start, .-cugrade_fiber_start

    .section .note.GNU-stack,"",@progbits
