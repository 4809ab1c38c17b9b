/* libmosquitto's types and constants from its header; its functions are forwarders
   (Mosquitto.c) to the library, which is opened by dk_mosquitto_load, not linked. */
#include <mosquitto.h>
#include <stddef.h>

/* The library MQTT opens. */
#define DK_MOSQUITTO_SONAME "libmosquitto.so.1"

/* Opens `soname` (DK_MOSQUITTO_SONAME in the kiosk) and resolves every libmosquitto function
   the kiosk calls; 0, or -1 with dlerror's text in `error`. Before it succeeds, calling a
   mosquitto_* function aborts with a message. */
int dk_mosquitto_load(const char *soname, char *error, size_t error_size);

/* Whether the loaded library has MQTT 5's functions (mosquitto_int_option, the v5 connect and
   disconnect callbacks, mosquitto_reason_string); 0 before a load. */
int dk_mosquitto_has_v5(void);
