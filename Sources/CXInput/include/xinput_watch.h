#ifndef FLICKD_XINPUT_WATCH_H
#define FLICKD_XINPUT_WATCH_H
// The X server's input devices' properties: read once (`flickd_xread`), and watched through
// XInput 2's property events (`flickd_xwatch_open`). libX11 and libXi are loaded with dlopen at
// the first of either, so a daemon that asks no X server (a Wayland session) maps neither.
#include <stddef.h>

typedef struct flickd_xwatch flickd_xwatch;

// Connects to `display` (NULL: $DISPLAY) and asks for the property events of every device,
// present and future, on the root window; `properties`: the names watched, one per line (up
// to four). Returns NULL when it cannot, with why in `why` (a
// sentence without a final period, cut to `why_size`). Blocks while the X server answers, at
// most `timeout_ms`: the connection is made on a thread of its own, left to end by itself
// when the server answers later (it then closes what it opened); while such a thread waits,
// a new opening waits for it first, within its own deadline.
flickd_xwatch *flickd_xwatch_open(const char *display, const char *properties, int timeout_ms, char *why, size_t why_size);

// The most properties `flickd_xread` reads, and values it keeps of each.
#define FLICKD_XPROPERTIES_MAX 8
#define FLICKD_XVALUES_MAX 4

// One slave pointer or floating slave of the X server, as `flickd_xread` read it.
typedef struct {
    char name[256];
    // Per property asked, in order: how many values it has (0: the device has no such
    // property, or not one of integers or floats), up to FLICKD_XVALUES_MAX, and them.
    int counts[FLICKD_XPROPERTIES_MAX];
    double values[FLICKD_XPROPERTIES_MAX][FLICKD_XVALUES_MAX];
} flickd_xdevice;

// Connects to `display` (NULL: $DISPLAY), reads `properties` (names, one per line, up to
// FLICKD_XPROPERTIES_MAX) of every slave pointer and floating slave (the devices `xinput list`
// shows under the pointers), and disconnects. Writes up to `capacity` devices to `devices`
// and returns how many; -1 when it cannot, with why in `why`. Blocks at most `timeout_ms`, as
// `flickd_xwatch_open` does, and shares its one waiting thread: a reading left behind at its
// deadline ends by itself (its results are dropped), and a new reading or opening waits for
// it first.
int flickd_xread(const char *display, const char *properties, int timeout_ms, flickd_xdevice *devices, int capacity,
                 char *why, size_t why_size);

// The connection's descriptor: readable when events may have come.
int flickd_xwatch_fd(const flickd_xwatch *watch);

// Reads every event that came without blocking: how many changed, created or deleted one of
// the properties on some device; -1 once the connection is lost (then only close it).
int flickd_xwatch_receive(flickd_xwatch *watch);

// Makes every Xlib call run inside an escape, as it does on a libX11 without
// XSetIOErrorExitHandler (before 1.7), where a lost connection would otherwise end the
// process. For tests, which cannot load an older libX11: call it before the first opening or
// reading.
void flickd_xlib_escape_every_call(void);

// Closes the connection (a lost one too, and one whose server no longer answers: it does not
// wait for it) and frees the watch.
void flickd_xwatch_close(flickd_xwatch *watch);

#endif
