// libyaml (Debian's libyaml-dev): the YAML parser behind `flickd replay`'s reading of
// `libinput record` files. Linked from its archive (Package.swift, FLICKD_LIBYAML).
#include <yaml.h>
