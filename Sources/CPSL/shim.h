/* libpsl (Public Suffix List, Debian's libpsl-dev): Swift calls it directly, nothing to wrap. */
#include <libpsl.h>
