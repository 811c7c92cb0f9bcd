/*
 * sim-private.h: declarations shared by the sim_*.c files of sim/engine only.
 *
 * The loop drives the queue through two calls that are not part of the public
 * contract: a pop bounded by the horizon, and moving the clock to the horizon
 * when a run stops there.
 */
#pragma once

#include "sim.h"

/* Pops the earliest event if its time is <= @limit. FALSE: none (or empty). */
gboolean sim_queue__pop_until(SimQueue *self, SimTime limit, SimEvent *out);
/* Moves the clock forward to @now (never backward). */
void sim_queue__advance(SimQueue *self, SimTime now);
