/* espeak-ng's types and constants from its header; its functions are forwarders
   (EspeakNG.c) to the library, which is opened by dk_espeak_load, not linked. */
#include <espeak-ng/speak_lib.h>
#include <stddef.h>

/* The library speech opens. */
#define DK_ESPEAK_SONAME "libespeak-ng.so.1"

/* Opens `soname` (DK_ESPEAK_SONAME in the kiosk) and resolves every espeak-ng function the
   kiosk calls; 0, or -1 with dlerror's text in `error`. Before it succeeds, calling an
   espeak_* function aborts with a message. */
int dk_espeak_load(const char *soname, char *error, size_t error_size);
