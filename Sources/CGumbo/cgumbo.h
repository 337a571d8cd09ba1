/* gumbo, Google's HTML5 parser, found through pkg-config (`gumbo`): Debian's libgumbo-dev,
   Homebrew's gumbo-parser. It reports where each tag and attribute is in the source, which
   lets pages be changed by splicing the original bytes. */
#include <gumbo.h>
