#include <sys/ioctl.h>
#include <linux/cec.h>

/* The request numbers, one function each (the _IOWR macros do not reach Swift). */
static inline unsigned long ccec_adap_g_caps(void) { return CEC_ADAP_G_CAPS; }
static inline unsigned long ccec_adap_g_phys_addr(void) { return CEC_ADAP_G_PHYS_ADDR; }
static inline unsigned long ccec_adap_g_log_addrs(void) { return CEC_ADAP_G_LOG_ADDRS; }
static inline unsigned long ccec_adap_s_log_addrs(void) { return CEC_ADAP_S_LOG_ADDRS; }
static inline unsigned long ccec_adap_g_connector_info(void) { return CEC_ADAP_G_CONNECTOR_INFO; }
static inline unsigned long ccec_s_mode(void) { return CEC_S_MODE; }
static inline unsigned long ccec_transmit(void) { return CEC_TRANSMIT; }
static inline unsigned long ccec_receive(void) { return CEC_RECEIVE; }
static inline unsigned long ccec_dqevent(void) { return CEC_DQEVENT; }

/* ioctl is variadic, which Swift cannot call. */
static inline int ccec_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
