// SPDX-License-Identifier: MIT
/*
 * What a hung job costs the host, and how fast a parked card wakes
 * (qemu-device/sim/vx_park.c, docs/hardware.md "Parking").  No QEMU: a
 * run thread drives the simulator as vortex-pci.c's does (slices under a
 * mutex, a timed sleep and vx_sim_park_poll() while parked), a 1,2,4,8
 * card on the best executor.
 *
 *   hang_cpu_share  CPU-seconds of the run thread (its own clock,
 *                   pthread_getcpuclockid) per second of a `j .` job, one
 *                   second a sample; without parking it would be 1.0
 *   idle_wake_us    from the host's write of the flag a parked warp spins
 *                   on (into VRAM, behind the simulator's back, as a BAR
 *                   write is), a second after the card parked, to the run
 *                   thread running the card again
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "bench_stats.h"
#include "uncore_util.h"

#define SAMPLES_HANG    3
#define SAMPLES_WAKE    7
#define SLICE           (16384 / 8)     /* vortex-pci.c's, 8-lane warps */

struct rt {
    struct card c;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t work;
    bool stop;
    double woke_us;         /* when the thread last left a parked spell */
};

/* vortex-pci.c's vortex_run_thread(), without the interrupt and polling. */
static void *run_thread(void *opaque)
{
    struct rt *rt = opaque;
    struct vx_sim *sim = rt->c.sim;

    pthread_mutex_lock(&rt->lock);
    while (!rt->stop) {
        if (vx_sim_parked(sim)) {
            struct timespec ts;

            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += vx_sim_park_poll_ms(sim) * 1000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&rt->work, &rt->lock, &ts);
            if (vx_sim_park_poll(sim)) {
                rt->woke_us = now_us();
            }
            continue;
        }
        if (!vx_sim_runnable(sim)) {
            pthread_cond_wait(&rt->work, &rt->lock);
            continue;
        }
        vx_sim_run(sim, SLICE);
        pthread_mutex_unlock(&rt->lock);
        pthread_mutex_lock(&rt->lock);
    }
    pthread_mutex_unlock(&rt->lock);
    return NULL;
}

static double thread_cpu_s(pthread_t t)
{
    struct timespec ts;
    clockid_t id;

    pthread_getcpuclockid(t, &id);
    clock_gettime(id, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int rt_open(struct rt *rt)
{
    if (card_open(&rt->c, 1, 2, 4, 8) < 0) {
        return -1;
    }
    ring_setup(&rt->c, 0x1000);
    pthread_mutex_init(&rt->lock, NULL);
    pthread_cond_init(&rt->work, NULL);
    rt->stop = false;
    return pthread_create(&rt->thread, NULL, run_thread, rt);
}

static void rt_close(struct rt *rt)
{
    pthread_mutex_lock(&rt->lock);
    rt->stop = true;
    pthread_cond_signal(&rt->work);
    pthread_mutex_unlock(&rt->lock);
    pthread_join(rt->thread, NULL);
    card_close(&rt->c);
}

/* Queue one block of the program at CODE_OFF and kick the thread. */
static void rt_launch(struct rt *rt)
{
    pthread_mutex_lock(&rt->lock);
    ring_launch_simple(&rt->c, 1, 8);
    ring_fence(&rt->c, 1, 0);
    ring_kick(&rt->c);
    pthread_cond_signal(&rt->work);
    pthread_mutex_unlock(&rt->lock);
}

static bool rt_parked(struct rt *rt)
{
    bool p;

    pthread_mutex_lock(&rt->lock);
    p = vx_sim_parked(rt->c.sim);
    pthread_mutex_unlock(&rt->lock);
    return p;
}

static double rt_woke(struct rt *rt)
{
    double t;

    pthread_mutex_lock(&rt->lock);
    t = rt->woke_us;
    pthread_mutex_unlock(&rt->lock);
    return t;
}

/* The job ended: nothing to run, not parked. */
static bool rt_idle(struct rt *rt)
{
    bool idle;

    pthread_mutex_lock(&rt->lock);
    idle = !vx_sim_parked(rt->c.sim) && !vx_sim_runnable(rt->c.sim);
    pthread_mutex_unlock(&rt->lock);
    return idle;
}

static int bench_hang(void)
{
    double share[SAMPLES_HANG];
    struct rt rt;

    if (rt_open(&rt)) {
        return -1;
    }
    PUT_CODE(&rt.c, JSELF);
    rt_launch(&rt);
    for (int i = 0; i < SAMPLES_HANG; i++) {
        double c0 = thread_cpu_s(rt.thread), t0 = now_us();

        sleep(1);
        share[i] = (thread_cpu_s(rt.thread) - c0) / ((now_us() - t0) / 1e6);
    }
    rt_close(&rt);
    return print_stats_prec("hang_cpu_share", share, SAMPLES_HANG, 4);
}

static int bench_wake(void)
{
    double us[SAMPLES_WAKE];
    struct rt rt;
    int n = 0;

    if (rt_open(&rt)) {
        return -1;
    }
    /* spin while the word at the argument is 0, then end */
    PUT_CODE(&rt.c, CSRR(10, VX_CSR_MSCRATCH), LW(5, 10, 0), BEQ(5, 0, -4),
             TMC(0));
    for (int i = 0; i < SAMPLES_WAKE; i++) {
        double t0;

        vram32_set(&rt.c, DATA_OFF, 0);
        rt_launch(&rt);
        while (!rt_parked(&rt)) {
            usleep(1000);
        }
        sleep(1);
        pthread_mutex_lock(&rt.lock);
        rt.woke_us = 0;
        pthread_mutex_unlock(&rt.lock);
        t0 = now_us();
        vram32_set(&rt.c, DATA_OFF, 1);     /* as a BAR write: no lock */
        while (!rt_woke(&rt)) {
            usleep(50);
        }
        us[n++] = rt_woke(&rt) - t0;
        while (!rt_idle(&rt)) {
            usleep(1000);
        }
    }
    rt_close(&rt);
    return print_stats("idle_wake_us", us, n);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (bench_hang() || bench_wake()) {
        fprintf(stderr, "park_bench: no card\n");
        return 1;
    }
    return 0;
}
