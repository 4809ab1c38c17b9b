/* ALSA's types and constants from its header; its functions are forwarders (ALSA.c) to
   libasound, which is opened by dk_alsa_load, not linked. */
#include <alsa/asoundlib.h>
#include <stddef.h>

/* The library sound output opens. */
#define DK_ALSA_SONAME "libasound.so.2"

/* Opens `soname` (DK_ALSA_SONAME in the kiosk) and resolves every ALSA function the kiosk
   calls; 0, or -1 with dlerror's text in `error`. Before it succeeds, calling an snd_*
   function aborts with a message. */
int dk_alsa_load(const char *soname, char *error, size_t error_size);

/* libasound prints its own errors to stderr through a variadic handler, which Swift cannot
   define; the kiosk words every failure itself (with the call and errno), so they are
   silenced once it is loaded. */
void dk_alsa_silence_errors(void);

/* The worker's wake-up for the loop's poll (Glibc's module does not export eventfd). */
#include <sys/eventfd.h>

/* The worker's bounded join at exit (glibc exports it only under _GNU_SOURCE). */
#include <pthread.h>
#include <time.h>
extern int pthread_timedjoin_np(pthread_t thread, void **retval, const struct timespec *abstime);
static inline int dk_timed_join(pthread_t thread, const struct timespec *abstime) {
    return pthread_timedjoin_np(thread, NULL, abstime);
}
