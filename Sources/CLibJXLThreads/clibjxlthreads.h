/* libjxl's thread pool, found through pkg-config (`libjxl_threads`), from the same packages as libjxl. */
#include <jxl/thread_parallel_runner.h>
