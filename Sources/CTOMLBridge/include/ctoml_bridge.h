#ifndef FLICKD_CTOML_BRIDGE_H
#define FLICKD_CTOML_BRIDGE_H
// A plain C view of a TOML document parsed by toml++ (Debian's libtomlplusplus-dev, used
// header-only with exceptions off; see ctoml_bridge.cpp). The Swift configuration loader
// reads it; nothing here is C++.
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a node holds.
typedef enum ctoml_type {
    ctoml_table = 0,
    ctoml_array = 1,
    ctoml_string = 2,
    ctoml_integer = 3,
    ctoml_float = 4,
    ctoml_boolean = 5,
    ctoml_date = 6,
    ctoml_time = 7,
    ctoml_date_time = 8,
} ctoml_type;

/// How an integer was written.
typedef enum ctoml_integer_format {
    ctoml_decimal = 0,
    ctoml_hexadecimal = 1,
    ctoml_octal = 2,
    ctoml_binary = 3,
} ctoml_integer_format;

/// One key or array element of the document. Nodes come depth first, a parent before its
/// children, so `parent` is always smaller than the node's own index: a table's keys in toml++'s
/// key order (sorted, not the order they were written in), an array's elements in order.
typedef struct ctoml_node {
    /// Index of the table or array holding this node; -1 for the keys of the root table.
    int32_t parent;
    /// 0-based position in the parent array; -1 when the parent is a table.
    int32_t index;
    /// The key (UTF-8, not NUL-terminated) when the parent is a table; NULL in an array.
    const char *key;
    size_t key_length;
    ctoml_type type;
    /// The text of a string (UTF-8, not NUL-terminated; may hold NUL bytes); NULL otherwise.
    const char *string;
    size_t string_length;
    /// The value of an integer.
    int64_t integer;
    /// How an integer was written: `0x1234` is hexadecimal, `1234` decimal.
    ctoml_integer_format integer_format;
    /// The value of a float.
    double floating;
    /// The value of a boolean.
    bool boolean;
    /// 1-based line and column where the key was written (a table's key: its header or the
    /// first dotted key that made it); for an array element, where its value starts. 0 when
    /// toml++ has no position for it.
    uint32_t line;
    uint32_t column;
} ctoml_node;

/// A parse: either the nodes, or the syntax error.
typedef struct ctoml_document {
    /// The nodes, `count` of them; NULL when `error` is set or the document is empty.
    const ctoml_node *nodes;
    size_t count;
    /// toml++'s description of the syntax error (NUL-terminated), or NULL when it parsed.
    const char *error;
    /// 1-based line and column of the syntax error (0 when toml++ gives none).
    uint32_t error_line;
    uint32_t error_column;
    /// Owned by the bridge; release with ctoml_free.
    void *storage;
} ctoml_document;

/// Parses `length` bytes of UTF-8 TOML at `text`. Never aborts on bad input: a syntax error
/// (including invalid UTF-8 or a NUL byte) is returned in `error`.
ctoml_document ctoml_parse(const char *text, size_t length);

/// Frees what `ctoml_parse` returned; the strings and nodes of `document` are gone after it.
void ctoml_free(ctoml_document *document);

#ifdef __cplusplus
}
#endif

#endif
