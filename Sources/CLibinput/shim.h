#include <libinput.h>
#include <stdarg.h>
#include <stdio.h>

/* libinput's log handler receives a printf format and a va_list, which Swift cannot format.
 * The trampoline below formats the line here and hands plain text to a Swift function found
 * through the context's user data. The same user data reaches open_restricted/close_restricted. */

/** What the libinput context's user data points to. */
struct dk_libinput_user {
    /** The Swift owner (an unretained object pointer). */
    void *owner;
    /** Receives each formatted log line (without its trailing newline). */
    void (*log_line)(void *owner, enum libinput_log_priority priority, const char *line);
};

static inline void dk_libinput_log_trampoline(struct libinput *li, enum libinput_log_priority priority,
                                              const char *format, va_list args) {
    struct dk_libinput_user *user = (struct dk_libinput_user *)libinput_get_user_data(li);
    if (user == NULL || user->log_line == NULL) return;
    char line[1024];
    int n = vsnprintf(line, sizeof line, format, args);
    if (n < 0) return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    while (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
    user->log_line(user->owner, priority, line);
}

/** Routes the context's log through dk_libinput_user.log_line. */
static inline void dk_libinput_route_log(struct libinput *li) {
    libinput_log_set_handler(li, dk_libinput_log_trampoline);
}
