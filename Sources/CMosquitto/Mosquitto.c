#include "CMosquitto.h"
#include "CLibraryLoader.h"

/* Every libmosquitto function the Swift code calls (MQTTLink's MosquittoClient and
   MosquittoError), resolved at once. */
#define DK_MOSQUITTO_FUNCTIONS(F, V)                                                                 \
    F(int, mosquitto_lib_init, (void), ())                                                           \
    F(struct mosquitto *, mosquitto_new, (const char *id, bool clean_session, void *obj),             \
      (id, clean_session, obj))                                                                     \
    V(void, mosquitto_destroy, (struct mosquitto *mosq), (mosq))                                     \
    V(void, mosquitto_user_data_set, (struct mosquitto *mosq, void *obj), (mosq, obj))               \
    V(void, mosquitto_connect_callback_set,                                                          \
      (struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int)), (mosq, on_connect)) \
    V(void, mosquitto_disconnect_callback_set,                                                       \
      (struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int)), (mosq, on_disconnect)) \
    V(void, mosquitto_publish_callback_set,                                                          \
      (struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int)), (mosq, on_publish)) \
    V(void, mosquitto_message_callback_set,                                                          \
      (struct mosquitto *mosq, void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)), \
      (mosq, on_message))                                                                           \
    F(const char *, mosquitto_connack_string, (int connack_code), (connack_code))                    \
    F(const char *, mosquitto_strerror, (int mosq_errno), (mosq_errno))                              \
    F(int, mosquitto_will_set,                                                                       \
      (struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain), \
      (mosq, topic, payloadlen, payload, qos, retain))                                               \
    F(int, mosquitto_username_pw_set, (struct mosquitto *mosq, const char *username, const char *password), \
      (mosq, username, password))                                                                   \
    F(int, mosquitto_tls_set,                                                                        \
      (struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,         \
       const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)),     \
      (mosq, cafile, capath, certfile, keyfile, pw_callback))                                        \
    F(int, mosquitto_connect_async, (struct mosquitto *mosq, const char *host, int port, int keepalive), \
      (mosq, host, port, keepalive))                                                                \
    F(int, mosquitto_socket, (struct mosquitto *mosq), (mosq))                                       \
    F(bool, mosquitto_want_write, (struct mosquitto *mosq), (mosq))                                  \
    F(int, mosquitto_loop_read, (struct mosquitto *mosq, int max_packets), (mosq, max_packets))       \
    F(int, mosquitto_loop_write, (struct mosquitto *mosq, int max_packets), (mosq, max_packets))      \
    F(int, mosquitto_loop_misc, (struct mosquitto *mosq), (mosq))                                    \
    F(int, mosquitto_publish,                                                                        \
      (struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos, bool retain), \
      (mosq, mid, topic, payloadlen, payload, qos, retain))                                          \
    F(int, mosquitto_subscribe, (struct mosquitto *mosq, int *mid, const char *sub, int qos),        \
      (mosq, mid, sub, qos))                                                                        \
    F(int, mosquitto_disconnect, (struct mosquitto *mosq), (mosq))

/* MQTT 5 (libmosquitto 1.6 and later): the protocol option, the connect and disconnect
   callbacks with reason codes, and the reason codes' words. A library without them still
   loads; the kiosk then speaks MQTT 3.1.1. */
#define DK_MOSQUITTO_V5_FUNCTIONS(F, V)                                                              \
    F(int, mosquitto_int_option, (struct mosquitto *mosq, enum mosq_opt_t option, int value),        \
      (mosq, option, value))                                                                        \
    V(void, mosquitto_connect_v5_callback_set,                                                       \
      (struct mosquitto *mosq,                                                                       \
       void (*on_connect)(struct mosquitto *, void *, int, int, const mosquitto_property *)),        \
      (mosq, on_connect))                                                                           \
    V(void, mosquitto_disconnect_v5_callback_set,                                                    \
      (struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int, const mosquitto_property *)), \
      (mosq, on_disconnect))                                                                        \
    F(const char *, mosquitto_reason_string, (int reason_code), (reason_code))

DK_LIBRARY_DEFINE_WITH_OPTIONAL(DK_MOSQUITTO_SONAME, DK_MOSQUITTO_FUNCTIONS, DK_MOSQUITTO_V5_FUNCTIONS)

int dk_mosquitto_load(const char *soname, char *error, size_t error_size) {
    return dk_library_load(&dk_this_library, soname, error, error_size);
}

int dk_mosquitto_has_v5(void) {
    return dk_library_optional(&dk_this_library, dk_optional_mosquitto_int_option) != NULL
        && dk_library_optional(&dk_this_library, dk_optional_mosquitto_connect_v5_callback_set) != NULL
        && dk_library_optional(&dk_this_library, dk_optional_mosquitto_disconnect_v5_callback_set) != NULL
        && dk_library_optional(&dk_this_library, dk_optional_mosquitto_reason_string) != NULL;
}
