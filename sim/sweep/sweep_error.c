/*
 * sweep_error.c: the error domain of sim/sweep (SWEEP_ERROR in sweep.h), in
 * a file of its own so that every part of the room can report into it.
 */
#include "sweep.h"

G_DEFINE_QUARK(drasim - sweep - error - quark, sweep_error)
