/* Shared libraries opened on first use instead of linked: a kiosk whose
   configuration has no speech, cues or MQTT never maps libespeak-ng, libasound or
   libmosquitto, nor the chains they pull in (PulseAudio, D-Bus, libsndfile, OpenSSL, ...).

   A C target that forwards to such a library lists the functions it uses once, as an X-macro
   list of F(return type, name, (parameters), (arguments)) and V(...) for those returning
   void, and expands it with the macros below: an index per function, the table of names, and
   one forwarder per function, defined with the library's own name so the Swift call sites are
   those of a linked library. The forwarders are hidden: the executable does not export them,
   so nothing loaded later (the library itself, its plugins) can bind to them instead of the
   real library's symbols. */
#ifndef DK_LIBRARY_LOADER_H
#define DK_LIBRARY_LOADER_H

#include <stddef.h>

/* One library: static in the C target that forwards to it. */
typedef struct dk_library {
    /* The SONAME the kiosk opens, for the message of a call made before any load. */
    const char *soname;
    /* The functions the forwarders call, in `table` order. */
    const char *const *names;
    size_t count;
    /* dlsym's answers, filled all at once by the first successful load. */
    void **table;
    /* Nonzero once `table` is complete; read with acquire ordering on any thread. */
    int loaded;
    /* Functions an older build of the library may lack (none for most libraries): resolved by
       the same first load, NULL where absent, so the wrapper can ask before it calls one. */
    const char *const *optional_names;
    size_t optional_count;
    void **optional_table;
} dk_library;

/* Opens `soname` (dlopen, RTLD_NOW | RTLD_LOCAL) and, the first time it succeeds, resolves
   every function of `library` at once. Returns 0, or -1 with dlerror's text in `error`
   ("libx.so.1: cannot open shared object file: No such file or directory", or the
   undefined symbol's name); a failed load leaves the library not loaded. Thread-safe.
   `soname` is opened on every call, so a name that does not open fails even after an earlier
   load succeeded; the table stays the first load's. */
int dk_library_load(dk_library *library, const char *soname, char *error, size_t error_size);

/* The function at `index`; a call before a successful load is a bug in the Swift wrapper
   (which loads first): it says so on stderr and aborts, rather than jumping to address 0. */
void *dk_library_function(dk_library *library, size_t index);

/* The optional function at `index`, or NULL when the library lacks it (or is not loaded). */
void *dk_library_optional(dk_library *library, size_t index);

/* The optional function at `index` for a call: one the library lacks is a bug in the Swift
   wrapper (which asks dk_library_optional first): it says so on stderr and aborts. */
void *dk_library_optional_call(dk_library *library, size_t index);

#define DK_LIBRARY_INDEX(type, name, parameters, arguments) dk_index_##name,
#define DK_LIBRARY_NAME(type, name, parameters, arguments) #name,
#define DK_LIBRARY_FORWARD(type, name, parameters, arguments)                                     \
    __attribute__((visibility("hidden"))) type name parameters {                                  \
        return ((__typeof__(&name))dk_library_function(&dk_this_library, dk_index_##name)) arguments; \
    }
#define DK_LIBRARY_FORWARD_VOID(type, name, parameters, arguments)                                \
    __attribute__((visibility("hidden"))) void name parameters {                                  \
        ((__typeof__(&name))dk_library_function(&dk_this_library, dk_index_##name)) arguments;     \
    }

#define DK_LIBRARY_OPTIONAL_INDEX(type, name, parameters, arguments) dk_optional_##name,
#define DK_LIBRARY_FORWARD_OPTIONAL(type, name, parameters, arguments)                            \
    __attribute__((visibility("hidden"))) type name parameters {                                  \
        return ((__typeof__(&name))dk_library_optional_call(&dk_this_library, dk_optional_##name)) arguments; \
    }
#define DK_LIBRARY_FORWARD_OPTIONAL_VOID(type, name, parameters, arguments)                       \
    __attribute__((visibility("hidden"))) void name parameters {                                  \
        ((__typeof__(&name))dk_library_optional_call(&dk_this_library, dk_optional_##name)) arguments; \
    }

/* As DK_LIBRARY_DEFINE, with OPTIONAL (the same X-macro form) the functions the library may
   lack: `dk_optional_<name>` indexes them for dk_library_optional. */
#define DK_LIBRARY_DEFINE_WITH_OPTIONAL(SONAME, LIST, OPTIONAL)                                   \
    enum { LIST(DK_LIBRARY_INDEX, DK_LIBRARY_INDEX) dk_function_count };                          \
    enum { OPTIONAL(DK_LIBRARY_OPTIONAL_INDEX, DK_LIBRARY_OPTIONAL_INDEX) dk_optional_count };    \
    static const char *const dk_function_names[] = { LIST(DK_LIBRARY_NAME, DK_LIBRARY_NAME) };   \
    static const char *const dk_optional_names[] = { OPTIONAL(DK_LIBRARY_NAME, DK_LIBRARY_NAME) }; \
    static void *dk_function_table[dk_function_count];                                            \
    static void *dk_optional_table[dk_optional_count];                                            \
    static dk_library dk_this_library = {                                                         \
        SONAME, dk_function_names, dk_function_count, dk_function_table, 0,                       \
        dk_optional_names, dk_optional_count, dk_optional_table };                                \
    LIST(DK_LIBRARY_FORWARD, DK_LIBRARY_FORWARD_VOID)                                             \
    OPTIONAL(DK_LIBRARY_FORWARD_OPTIONAL, DK_LIBRARY_FORWARD_OPTIONAL_VOID)

/* Defines `dk_this_library` for SONAME and the forwarders of LIST (an X-macro list taking
   F and V); in the library's one .c file. */
#define DK_LIBRARY_DEFINE(SONAME, LIST)                                                           \
    enum { LIST(DK_LIBRARY_INDEX, DK_LIBRARY_INDEX) dk_function_count };                          \
    static const char *const dk_function_names[] = { LIST(DK_LIBRARY_NAME, DK_LIBRARY_NAME) };   \
    static void *dk_function_table[dk_function_count];                                            \
    static dk_library dk_this_library = {                                                         \
        SONAME, dk_function_names, dk_function_count, dk_function_table, 0 };                     \
    LIST(DK_LIBRARY_FORWARD, DK_LIBRARY_FORWARD_VOID)

#endif
