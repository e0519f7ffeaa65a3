#ifndef FLICKD_XINPUT_WATCH_H
#define FLICKD_XINPUT_WATCH_H
// A watch on some X input device properties of every device of an X server, through XInput 2's
// property events. libX11 and libXi are loaded with dlopen at the first open, so a daemon that
// never opens one (a Wayland session) maps neither; they are the libraries xinput itself uses.
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

// The connection's descriptor: readable when events may have come.
int flickd_xwatch_fd(const flickd_xwatch *watch);

// Reads every event that came without blocking: how many changed, created or deleted one of
// the properties on some device; -1 once the connection is lost (then only close it).
int flickd_xwatch_receive(flickd_xwatch *watch);

// Closes the connection (a lost one too, and one whose server no longer answers: it does not
// wait for it) and frees the watch.
void flickd_xwatch_close(flickd_xwatch *watch);

#endif
