#include "CALSA.h"
#include "CLibraryLoader.h"

/* Every libasound function the Swift code calls (Audio's PCMOutput and AudioError), and the
   error handler's setter below, resolved at once. */
#define DK_ALSA_FUNCTIONS(F, V)                                                                      \
    F(int, snd_lib_error_set_handler, (snd_lib_error_handler_t handler), (handler))                  \
    F(const char *, snd_strerror, (int errnum), (errnum))                                            \
    F(int, snd_pcm_open, (snd_pcm_t **pcm, const char *name, snd_pcm_stream_t stream, int mode),     \
      (pcm, name, stream, mode))                                                                    \
    F(int, snd_pcm_set_params,                                                                       \
      (snd_pcm_t *pcm, snd_pcm_format_t format, snd_pcm_access_t access, unsigned int channels,      \
       unsigned int rate, int soft_resample, unsigned int latency),                                  \
      (pcm, format, access, channels, rate, soft_resample, latency))                                 \
    F(int, snd_pcm_close, (snd_pcm_t *pcm), (pcm))                                                   \
    F(snd_pcm_sframes_t, snd_pcm_writei, (snd_pcm_t *pcm, const void *buffer, snd_pcm_uframes_t size), \
      (pcm, buffer, size))                                                                          \
    F(int, snd_pcm_recover, (snd_pcm_t *pcm, int err, int silent), (pcm, err, silent))                \
    F(int, snd_pcm_delay, (snd_pcm_t *pcm, snd_pcm_sframes_t *delayp), (pcm, delayp))                 \
    F(snd_pcm_state_t, snd_pcm_state, (snd_pcm_t *pcm), (pcm))                                       \
    F(int, snd_pcm_start, (snd_pcm_t *pcm), (pcm))                                                   \
    F(int, snd_pcm_drop, (snd_pcm_t *pcm), (pcm))                                                    \
    F(int, snd_pcm_prepare, (snd_pcm_t *pcm), (pcm))                                                 \
    F(int, snd_pcm_poll_descriptors_count, (snd_pcm_t *pcm), (pcm))                                  \
    F(int, snd_pcm_poll_descriptors, (snd_pcm_t *pcm, struct pollfd *pfds, unsigned int space),      \
      (pcm, pfds, space))

DK_LIBRARY_DEFINE(DK_ALSA_SONAME, DK_ALSA_FUNCTIONS)

int dk_alsa_load(const char *soname, char *error, size_t error_size) {
    return dk_library_load(&dk_this_library, soname, error, error_size);
}

static void dk_alsa_silent_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void dk_alsa_silence_errors(void) { snd_lib_error_set_handler(dk_alsa_silent_error); }
