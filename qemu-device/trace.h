#include "trace/trace-hw_misc_vortex.h"
