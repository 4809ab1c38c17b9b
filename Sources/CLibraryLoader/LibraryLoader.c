#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One lock for every library: each is loaded once per process, but possibly from two threads
   at once (the audio worker's first utterance while a reload checks a voice). */
static pthread_mutex_t dk_load_lock = PTHREAD_MUTEX_INITIALIZER;

static int dk_fail(char *error, size_t error_size, const char *fallback) {
    const char *text = dlerror();
    if (error_size > 0) snprintf(error, error_size, "%s", text ? text : fallback);
    return -1;
}

int dk_library_load(dk_library *library, const char *soname, char *error, size_t error_size) {
    pthread_mutex_lock(&dk_load_lock);
    dlerror();
    /* The handle is never closed: the forwarders' table points into the library for the rest
       of the process, and the libraries keep state and threads of their own once initialised
       (espeak-ng's queue thread, OpenSSL's state from mosquitto_lib_init, ALSA's plugins).
       A second open only raises the reference count. */
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        int result = dk_fail(error, error_size, "dlopen failed");
        pthread_mutex_unlock(&dk_load_lock);
        return result;
    }
    if (!__atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE)) {
        for (size_t i = 0; i < library->count; i++) {
            dlerror();
            void *function = dlsym(handle, library->names[i]);
            if (function == NULL) {
                int result = dk_fail(error, error_size, "a function is missing");
                memset(library->table, 0, library->count * sizeof library->table[0]);
                pthread_mutex_unlock(&dk_load_lock);
                return result;
            }
            library->table[i] = function;
        }
        for (size_t i = 0; i < library->optional_count; i++) {
            library->optional_table[i] = dlsym(handle, library->optional_names[i]);
        }
        dlerror();
        __atomic_store_n(&library->loaded, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&dk_load_lock);
    return 0;
}

void *dk_library_function(dk_library *library, size_t index) {
    if (!__atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE)) {
        fprintf(stderr, "dialkiosk: %s called before %s was loaded (its Swift wrapper must load it first)\n",
                library->names[index], library->soname);
        abort();
    }
    return library->table[index];
}

void *dk_library_optional(dk_library *library, size_t index) {
    if (!__atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE) || index >= library->optional_count) return NULL;
    return library->optional_table[index];
}

void *dk_library_optional_call(dk_library *library, size_t index) {
    void *function = dk_library_optional(library, index);
    if (function == NULL) {
        fprintf(stderr, "dialkiosk: %s called but %s lacks it (its Swift wrapper must ask first)\n",
                index < library->optional_count ? library->optional_names[index] : "an optional function", library->soname);
        abort();
    }
    return function;
}
