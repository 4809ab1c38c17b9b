/*
 * drmkit: the pieces drmtool's commands share: card and connector lookup, dumb buffers with
 * framebuffers, PPM output, errors that name the libdrm call. Guest-side test tooling only.
 */
#ifndef DRMKIT_H
#define DRMKIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

/* Prints "drmtool: <message>" and exits with status 1. */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* Dies with the failing call and errno, e.g. "drmModeSetCrtc 36: Permission denied". */
void die_errno(const char *call, uint32_t id) __attribute__((noreturn));

/* Opens PATH, or the first /dev/dri/cardN whose driver is DRIVER. A root opener becomes master
 * when nobody is; that is dropped at once unless KEEP_MASTER. */
int open_card(const char *path, const char *driver, bool keep_master);
/* drmSetMaster, or dies naming the likely reason (another master). */
void become_master(int fd);

drmModeResPtr resources(int fd);
/* "Virtual-1", "HDMI-A-2": the kernel's connector type name and index. */
const char *connector_name(drmModeConnectorPtr c, char *buf, size_t size);
/* The CRTC the connector's current encoder drives, 0 if none. */
uint32_t crtc_of_connector(int fd, drmModeConnectorPtr c);
/* The first CRTC with a framebuffer, or dies. */
uint32_t first_active_crtc(int fd);
/* The connected connector named WANT (any connected one if NULL), or dies listing them. */
drmModeConnectorPtr pick_connector(int fd, drmModeResPtr res, const char *want);
drmModeModeInfo preferred_mode(drmModeConnectorPtr c);
/* The id of the named property of a KMS object, or dies. */
uint32_t property_id(int fd, uint32_t object, uint32_t type, const char *name);

/* A mapped XRGB8888 dumb buffer with its framebuffer; one owner, destroyed in reverse order. */
struct dumb {
    int fd;
    uint32_t width, height, pitch, handle, fb;
    uint64_t size;
    uint8_t *map;
};
struct dumb dumb_create(int fd, uint32_t width, uint32_t height);
/* Removes the framebuffer, unmaps, destroys the buffer. Safe to call twice. */
void dumb_destroy(struct dumb *d);
static inline uint32_t *dumb_pixel(const struct dumb *d, uint32_t x, uint32_t y) {
    return (uint32_t *)(d->map + (size_t)y * d->pitch + (size_t)x * 4);
}

/* The test pattern of `master`: gradients plus a checkerboard, so offsets and swapped channels
 * both show in a comparison. */
uint32_t pattern(uint32_t x, uint32_t y, uint32_t w, uint32_t h);
/* Writes XRGB8888 pixels (or, with PIXELS NULL, the pattern) as a binary PPM (P6). */
void write_ppm(const char *file, uint32_t w, uint32_t h, const uint8_t *pixels, uint32_t pitch);

/* SIGTERM/SIGINT blocked from the start, so one sent right after a ready line is not lost in the
 * gap before wait_for_termination and ends the process through its teardown. */
void block_termination(void);
void wait_for_termination(void);
double monotonic_now(void);

/* drmtool watch DIR (drmwatch.c): records the CRTC's framebuffer, mode and ACTIVE until
 * SIGTERM/SIGINT, which must be blocked (block_termination) before. */
int cmd_watch(int fd, const char *dir);

#endif
