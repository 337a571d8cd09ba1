/* libvips and GLib, found through pkg-config (`vips`): Debian's libvips-dev, Homebrew's vips. */
#include <vips/vips.h>
#include <glib.h>
