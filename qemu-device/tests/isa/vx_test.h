/* SPDX-License-Identifier: MIT */
/*
 * Device-side helpers for the simulator's test programs.
 *
 * Every test program defines test_main(out), writes its results to out[]
 * and returns how many words it wrote.  crt_sim.S runs it on the simulator
 * (result_buf/result_count are read back by the host), crt_linux.S under
 * qemu-riscv32 (the words go to stdout); the host compares the two.
 */
#ifndef VX_TEST_H
#define VX_TEST_H

#define VX_RESULT_WORDS (256 * 1024)

unsigned test_main(unsigned *out);

/*
 * The lane running this code: the simulator's lane CSR, or under
 * qemu-riscv32 the pass number when the program defines test_nlanes (the
 * Linux crt then runs test_main once per lane, in sequence).  Code that
 * depends on it must not branch on it: a divergent branch follows the
 * lowest lane on the simulator.
 */
unsigned test_lane(void);

/* One R-type instruction with register operands, exactly as written. */
#define VX_RTYPE(mn)                                                         \
    static inline unsigned op_##mn(unsigned a, unsigned b)                   \
    {                                                                        \
        unsigned r;                                                          \
        __asm__ volatile(#mn " %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));      \
        return r;                                                            \
    }

/* Vortex SIMT instructions (custom-0). */
static inline void vx_tmc(unsigned mask)
{
    __asm__ volatile(".insn r 0x0b, 0, 0, x0, %0, x0" :: "r"(mask) : "memory");
}

/*
 * tmc with the mask built inside the asm: a value the compiler computed
 * earlier may only be valid in lanes that were active back then.
 */
#define vx_tmc_imm(mask)                                                     \
    __asm__ volatile("li t0, %0\n\t.insn r 0x0b, 0, 0, x0, t0, x0"           \
                     :: "i"(mask) : "t0", "memory")

static inline void vx_wspawn(unsigned n, void (*pc)(void))
{
    __asm__ volatile(".insn r 0x0b, 1, 0, x0, %0, %1" :: "r"(n), "r"(pc)
                     : "memory");
}

static inline unsigned vx_split(unsigned pred)
{
    unsigned t;

    __asm__ volatile(".insn r 0x0b, 2, 0, %0, %1, x0" : "=r"(t) : "r"(pred)
                     : "memory");
    return t;
}

static inline void vx_join(unsigned token)
{
    __asm__ volatile(".insn r 0x0b, 3, 0, x0, %0, x0" :: "r"(token) : "memory");
}

static inline void vx_bar(unsigned id, unsigned count)
{
    __asm__ volatile(".insn r 0x0b, 4, 0, x0, %0, %1" :: "r"(id), "r"(count)
                     : "memory");
}

static inline void vx_pred(unsigned cond, unsigned mask)
{
    __asm__ volatile(".insn r 0x0b, 5, 0, x0, %0, %1" :: "r"(cond), "r"(mask)
                     : "memory");
}

#define vx_csr_read(csr)                                                     \
    ({ unsigned v_; __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })

#endif /* VX_TEST_H */
