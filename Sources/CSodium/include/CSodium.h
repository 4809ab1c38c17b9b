/* libsodium's types and constants from its header; its functions are forwarders (Sodium.c) to
   the library, which is opened by dk_sodium_load, not linked: a kiosk without a `fleet:`
   section never maps it. */
/* The forwarders are hidden (see CLibraryLoader.h); without this the header declares the
   functions with default visibility. Nothing is linked statically. */
#define SODIUM_STATIC 1
#include <sodium.h>
#include <stddef.h>

/* The library fleet configuration opens. */
#define DK_SODIUM_SONAME "libsodium.so.23"

/* Opens `soname` (DK_SODIUM_SONAME in the kiosk) and resolves every libsodium function the
   kiosk calls; 0, or -1 with dlerror's text in `error`. Before it succeeds, calling one of them
   aborts with a message. */
int dk_sodium_load(const char *soname, char *error, size_t error_size);
