/* libwebp, found through pkg-config (`libwebp`): Debian's libwebp-dev, Homebrew's webp. */
#include <webp/decode.h>
#include <webp/encode.h>
