#include "CEspeakNG.h"
#include "CLibraryLoader.h"

/* Every espeak-ng function the Swift code calls (Audio's Espeak), resolved at once. */
#define DK_ESPEAK_FUNCTIONS(F, V)                                                                    \
    F(int, espeak_Initialize, (espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options), \
      (output, buflength, path, options))                                                           \
    V(void, espeak_SetSynthCallback, (t_espeak_callback *callback), (callback))                      \
    F(const espeak_VOICE **, espeak_ListVoices, (espeak_VOICE *voice_spec), (voice_spec))             \
    F(espeak_ERROR, espeak_SetVoiceByName, (const char *name), (name))                               \
    F(espeak_ERROR, espeak_SetParameter, (espeak_PARAMETER parameter, int value, int relative),      \
      (parameter, value, relative))                                                                 \
    F(espeak_ERROR, espeak_Synth,                                                                    \
      (const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE position_type,     \
       unsigned int end_position, unsigned int flags, unsigned int *unique_identifier, void *user_data), \
      (text, size, position, position_type, end_position, flags, unique_identifier, user_data))

DK_LIBRARY_DEFINE(DK_ESPEAK_SONAME, DK_ESPEAK_FUNCTIONS)

int dk_espeak_load(const char *soname, char *error, size_t error_size) {
    return dk_library_load(&dk_this_library, soname, error, error_size);
}
