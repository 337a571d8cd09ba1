/* libjxl's encoder, found through pkg-config (`libjxl`): Debian's libjxl-dev, Homebrew's jpeg-xl. */
#include <jxl/encode.h>
