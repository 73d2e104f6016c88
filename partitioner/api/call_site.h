// CallSite: a place in the user's C++ source, captured where a GraphBuilder method is called,
// so that the ops of a program built in C++ carry the file and line that made them.
//
// Every GraphBuilder method ends with a parameter `CallSite site = CallSite::Current()`. A
// default argument is evaluated where the call is written, so `Current()` there records the
// caller's file and line (and, with compilers that provide __builtin_COLUMN, e.g. clang, the
// column) without the caller writing anything:
//
//   Value h = b.MatMul(x, w);   // the dot_general's location is my_model.cc:42
//
// Code that builds programs on behalf of another source (a frontend that knows its own
// positions) passes one explicitly; `CallSite()` gives no location at all.
#ifndef TESSEL_PARTITIONER_API_CALL_SITE_H_
#define TESSEL_PARTITIONER_API_CALL_SITE_H_

#include <string>

// gcc 12 has __builtin_FILE and __builtin_LINE but not __builtin_COLUMN; clang has all three.
#if defined(__has_builtin)
#if __has_builtin(__builtin_COLUMN)
#define TESSEL_CALL_SITE_COLUMN() __builtin_COLUMN()
#endif
#endif
#ifndef TESSEL_CALL_SITE_COLUMN
#define TESSEL_CALL_SITE_COLUMN() 0
#endif

namespace tessel {

class CallSite {
 public:
  // The place of the call whose default argument this is. Call it without arguments.
  static constexpr CallSite Current(const char* file = __builtin_FILE(),
                                    int line = __builtin_LINE(),
                                    int column = TESSEL_CALL_SITE_COLUMN()) {
    return CallSite(file, line, column);
  }

  // No place: ops made with it have an unknown location.
  constexpr CallSite() = default;
  // An explicit place; `column` 0 when unknown. `file` is read during the call it is passed
  // to and need not outlive it.
  constexpr CallSite(const char* file, int line, int column = 0)
      : file_(file), line_(line), column_(column) {}

  bool known() const { return file_ != nullptr && file_[0] != '\0'; }
  // The file as the compiler was given it ("src/my_model.cc"); "" when unknown.
  const char* file() const { return file_ == nullptr ? "" : file_; }
  int line() const { return line_; }
  // 0 when the compiler does not say.
  int column() const { return column_; }

  // "my_model.cc:42:7", "my_model.cc:42" without a column, "" when unknown: the form of
  // Tessel's other located messages.
  std::string ToString() const {
    if (!known()) return "";
    std::string text = std::string(file_) + ":" + std::to_string(line_);
    if (column_ > 0) text += ":" + std::to_string(column_);
    return text;
  }

 private:
  const char* file_ = nullptr;
  int line_ = 0;
  int column_ = 0;
};

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_CALL_SITE_H_
