// The bridge between toml++ and flickd's Swift configuration loader.
//
// toml++ is used header-only from Debian's libtomlplusplus-dev (3.3.0): Debian's shared
// library is built with exceptions on (its symbols are in toml::v3::ex), and this target is
// compiled with -fno-exceptions, so the parser is compiled here, with:
// - TOML_EXCEPTIONS=0: a syntax error is a value (parse_result), never a throw;
// - TOML_ENABLE_FORMATTERS=0: flickd never writes TOML back, so the printers stay out;
// - TOML_ASSERT replaced: toml++ checks its parser's preconditions with assert(), and in 3.3.0
//   two of them are reachable from invalid input (a table header such as `[=`, and `[}` in an
//   array); each is followed by the parser's own syntax error, so a failed check is noted here
//   instead of aborting the process, and a parse that noted one is never accepted.
// - TOML_FLOAT_CHARCONV=1: floats are read with std::from_chars (libstdc++ 11 and later; correctly
//   rounded, as the stream was). toml++ 3.3.0 turns it off for every GCC and Clang, and reads
//   them through a std::stringstream imbued with std::locale::classic() instead, which links
//   and, at the first float of every start, builds all of libstdc++'s locale facets (narrow
//   and wide, with the C library's wide-character functions they call): about 150 KiB of
//   flickd's resident memory for parsing numbers (docs/PERFORMANCE.md, "Fifth pass").
#define TOML_HEADER_ONLY 1
#define TOML_FLOAT_CHARCONV 1
#define TOML_EXCEPTIONS 0
#define TOML_ENABLE_FORMATTERS 0
#define TOML_ENABLE_WINDOWS_COMPAT 0

namespace ctoml_bridge {
// Set when one of toml++'s internal checks failed during the current parse.
thread_local bool preconditionFailed = false;
inline void notePreconditionFailed() noexcept { preconditionFailed = true; }
}  // namespace ctoml_bridge

#define TOML_ASSERT(expr) ((expr) ? static_cast<void>(0) : ::ctoml_bridge::notePreconditionFailed())

#include <toml++/toml.h>

#include <string>
#include <utility>
#include <vector>

#include "ctoml_bridge.h"

namespace {

struct Storage {
    toml::parse_result result;
    std::vector<ctoml_node> nodes;
    std::string error;
};

uint32_t clampPosition(toml::source_index value) {
    return static_cast<uint32_t>(value);
}

ctoml_node makeNode(const toml::node &node, int32_t parent, int32_t index) {
    ctoml_node out{};
    out.parent = parent;
    out.index = index;
    const auto begin = node.source().begin;
    out.line = clampPosition(begin.line);
    out.column = clampPosition(begin.column);
    switch (node.type()) {
    case toml::node_type::table: out.type = ctoml_table; break;
    case toml::node_type::array: out.type = ctoml_array; break;
    case toml::node_type::string: {
        const std::string &text = node.as_string()->get();
        out.type = ctoml_string;
        out.string = text.data();
        out.string_length = text.size();
        break;
    }
    case toml::node_type::integer: {
        const toml::value<int64_t> &integer = *node.as_integer();
        out.type = ctoml_integer;
        out.integer = integer.get();
        // toml++'s parser marks an integer written 0x, 0o or 0b with one of three values (1 to 3,
        // not separate bits) of these flags.
        switch (integer.flags() & toml::value_flags::format_as_hexadecimal) {
        case toml::value_flags::format_as_hexadecimal: out.integer_format = ctoml_hexadecimal; break;
        case toml::value_flags::format_as_octal: out.integer_format = ctoml_octal; break;
        case toml::value_flags::format_as_binary: out.integer_format = ctoml_binary; break;
        default: out.integer_format = ctoml_decimal; break;
        }
        break;
    }
    case toml::node_type::floating_point:
        out.type = ctoml_float;
        out.floating = node.as_floating_point()->get();
        break;
    case toml::node_type::boolean:
        out.type = ctoml_boolean;
        out.boolean = node.as_boolean()->get();
        break;
    case toml::node_type::date: out.type = ctoml_date; break;
    case toml::node_type::time: out.type = ctoml_time; break;
    case toml::node_type::date_time: out.type = ctoml_date_time; break;
    case toml::node_type::none: out.type = ctoml_table; break;  // never in a parsed document
    }
    return out;
}

// Flattens `root` into `nodes`, parents first. An explicit stack instead of recursion: a long
// dotted key (`a.a.a...`) nests tables as deep as the file is long.
void flatten(const toml::table &root, std::vector<ctoml_node> &nodes) {
    struct Pending {
        const toml::node *node;
        int32_t parent;
        int32_t index;
        const toml::key *key;
    };
    std::vector<Pending> stack;
    auto pushChildren = [&stack](const toml::node &container, int32_t self) {
        // Pushed in reverse so that they come out in order: an array's as written, a table's
        // in its key order (toml++ keeps a table's keys sorted, not as written).
        if (const toml::table *table = container.as_table()) {
            std::vector<Pending> children;
            for (auto &&entry : *table) children.push_back({&entry.second, self, -1, &entry.first});
            for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
        } else if (const toml::array *array = container.as_array()) {
            for (size_t i = array->size(); i > 0; --i) {
                stack.push_back({array->get(i - 1), self, static_cast<int32_t>(i - 1), nullptr});
            }
        }
    };
    pushChildren(root, -1);
    while (!stack.empty()) {
        const Pending item = stack.back();
        stack.pop_back();
        ctoml_node out = makeNode(*item.node, item.parent, item.index);
        if (item.key) {
            out.key = item.key->str().data();
            out.key_length = item.key->str().size();
            // Where the key was written, not where its value starts.
            const auto begin = item.key->source().begin;
            if (begin.line > 0) {
                out.line = clampPosition(begin.line);
                out.column = clampPosition(begin.column);
            }
        }
        const int32_t self = static_cast<int32_t>(nodes.size());
        nodes.push_back(out);
        pushChildren(*item.node, self);
    }
}

}  // namespace

extern "C" ctoml_document ctoml_parse(const char *text, size_t length) {
    ctoml_document document{};
    auto *storage = new Storage{};
    document.storage = storage;
    ctoml_bridge::preconditionFailed = false;
    storage->result = toml::parse(std::string_view(text ? text : "", text ? length : 0));
    if (!storage->result) {
        const toml::parse_error &error = storage->result.error();
        storage->error = std::string(error.description());
        document.error_line = clampPosition(error.source().begin.line);
        document.error_column = clampPosition(error.source().begin.column);
    } else if (ctoml_bridge::preconditionFailed) {
        storage->error = "the parser met input it does not handle";
    } else {
        flatten(storage->result.table(), storage->nodes);
        document.nodes = storage->nodes.empty() ? nullptr : storage->nodes.data();
        document.count = storage->nodes.size();
    }
    if (!storage->error.empty()) document.error = storage->error.c_str();
    return document;
}

extern "C" void ctoml_free(ctoml_document *document) {
    if (!document) return;
    delete static_cast<Storage *>(document->storage);
    *document = ctoml_document{};
}
