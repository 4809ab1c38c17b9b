#include <alsa/asoundlib.h>

/* libasound prints its own errors to stderr through a variadic handler, which Swift cannot
   define; the kiosk words every failure itself (with the call and errno), so they are
   silenced here once. */
static void dk_alsa_silent_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void dk_alsa_silence_errors(void) { snd_lib_error_set_handler(dk_alsa_silent_error); }

/* The worker's wake-up for the loop's poll (Glibc's module does not export eventfd). */
#include <sys/eventfd.h>

/* The worker's bounded join at exit (glibc exports it only under _GNU_SOURCE). */
#include <pthread.h>
#include <time.h>
extern int pthread_timedjoin_np(pthread_t thread, void **retval, const struct timespec *abstime);
static inline int dk_timed_join(pthread_t thread, const struct timespec *abstime) {
    return pthread_timedjoin_np(thread, NULL, abstime);
}
