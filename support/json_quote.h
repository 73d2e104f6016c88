// Writing JSON by hand in the reports (`tessel report`, `tessel viz`): string literals.
//
//   out += "\"file\": " + JsonQuote(path);
#ifndef TESSEL_SUPPORT_JSON_QUOTE_H_
#define TESSEL_SUPPORT_JSON_QUOTE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace tessel {

// `text` as a JSON string literal: quoted, with quotes, backslashes and control characters
// escaped.
std::string JsonQuote(absl::string_view text);

}  // namespace tessel

#endif  // TESSEL_SUPPORT_JSON_QUOTE_H_
