#include "scenario/quantity.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>
#include <vector>

namespace fl {
namespace {

// A decimal number as written: value = digits x 10^exp10 (digits without a dot). Kept
// textual so that unit scaling by powers of ten never rounds twice.
struct Decimal {
  bool negative = false;
  std::string digits;
  int exp10 = 0;
  bool plainInteger = true;  // no dot and no exponent
};

struct Unit {
  std::string_view name;
  int exp10;    // power of ten (SI prefix)
  int pow1024;  // power of 1024 (binary prefix)
  bool bits;    // bits, not bytes: divide by 8
};

// Accepted spellings; the first group of each kind is what messages list.
const std::vector<Unit>& units(QuantityKind kind) {
  static const std::vector<Unit> bytes = {
      {"B", 0, 0, false},   {"KB", 3, 0, false},  {"MB", 6, 0, false},  {"GB", 9, 0, false},
      {"TB", 12, 0, false}, {"KiB", 0, 1, false}, {"MiB", 0, 2, false}, {"GiB", 0, 3, false},
      {"TiB", 0, 4, false}, {"kB", 3, 0, false}};
  static const std::vector<Unit> rates = {
      {"B/s", 0, 0, false},   {"KB/s", 3, 0, false},  {"MB/s", 6, 0, false},
      {"GB/s", 9, 0, false},  {"TB/s", 12, 0, false}, {"KiB/s", 0, 1, false},
      {"MiB/s", 0, 2, false}, {"GiB/s", 0, 3, false}, {"TiB/s", 0, 4, false},
      {"b/s", 0, 0, true},    {"Kb/s", 3, 0, true},   {"Mb/s", 6, 0, true},
      {"Gb/s", 9, 0, true},   {"Tb/s", 12, 0, true},  {"kB/s", 3, 0, false},
      {"kb/s", 3, 0, true},   {"bps", 0, 0, true},    {"Kbps", 3, 0, true},
      {"kbps", 3, 0, true},   {"Mbps", 6, 0, true},   {"Gbps", 9, 0, true},
      {"Tbps", 12, 0, true}};
  static const std::vector<Unit> times = {{"ps", 0, 0, false}, {"ns", 3, 0, false},
                                          {"us", 6, 0, false}, {"\xC2\xB5s", 6, 0, false},
                                          {"\xCE\xBCs", 6, 0, false}, {"ms", 9, 0, false},
                                          {"s", 12, 0, false}};
  static const std::vector<Unit> none;
  switch (kind) {
    case QuantityKind::Bytes: return bytes;
    case QuantityKind::Bandwidth: return rates;
    case QuantityKind::Time: return times;
    default: return none;
  }
}

const char* description(QuantityKind kind) {
  switch (kind) {
    case QuantityKind::Bytes: return "a byte size such as '64 KiB'";
    case QuantityKind::Bandwidth: return "a bandwidth such as '450 GB/s'";
    case QuantityKind::Time: return "a time such as '250 ns'";
    case QuantityKind::Fraction: return "a fraction such as '0.8' or '80 %'";
    case QuantityKind::Count: return "a non-negative integer such as '8'";
  }
  return "";
}

const char* suggestedUnit(QuantityKind kind) {
  switch (kind) {
    case QuantityKind::Bytes: return "B";
    case QuantityKind::Bandwidth: return "GB/s";
    case QuantityKind::Time: return "ns";
    default: return "";
  }
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Splits "25.5e3 GB/s" into the number and the unit; false when no number leads.
bool splitNumber(std::string_view s, Decimal& d, std::string_view& unit) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) d.negative = s[i++] == '-';
  bool any = false, dot = false;
  for (; i < s.size(); ++i) {
    if (isDigit(s[i])) {
      d.digits += s[i];
      any = true;
      if (dot) --d.exp10;
    } else if (s[i] == '.' && !dot) {
      dot = true;
      d.plainInteger = false;
    } else {
      break;
    }
  }
  if (!any) return false;
  // An exponent only when digits follow ("1e3"), so no unit can be eaten by accident.
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    bool minus = false;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) minus = s[j++] == '-';
    if (j < s.size() && isDigit(s[j])) {
      int e = 0;
      auto [p, ec] = std::from_chars(s.data() + j, s.data() + s.size(), e);
      if (ec != std::errc() || e > 1000) return false;
      d.exp10 += minus ? -e : e;
      d.plainInteger = false;
      i = static_cast<size_t>(p - s.data());
    }
  }
  size_t nz = d.digits.find_first_not_of('0');
  d.digits = nz == std::string::npos ? "0" : d.digits.substr(nz);
  unit = trim(s.substr(i));
  return true;
}

[[noreturn]] void fail(QuantityKind kind, std::string_view text, const std::string& keyPath,
                       const InputLocation& where, std::string hint,
                       std::string expected = {}) {
  throw InputError(where, keyPath, expected.empty() ? description(kind) : expected,
                   "'" + std::string(text) + "'", std::move(hint));
}

// d x 10^exp10 x mul as an integer, rounded to nearest; `exact` tells if no rounding.
bool toInteger(const Decimal& d, int exp10, std::int64_t mul, std::int64_t& out, bool& exact) {
  using I = __int128;
  const I limit = std::numeric_limits<std::int64_t>::max();
  exp10 += d.exp10;
  std::string digits = d.digits;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back(), ++exp10;
  if (digits.size() > 24) return false;  // keeps digits x 1024^4 inside __int128
  I m = 0;
  for (char c : digits) m = m * 10 + (c - '0');
  m *= mul;
  exact = true;
  if (m == 0) { out = 0; return true; }
  for (; exp10 > 0; --exp10) {
    m *= 10;
    if (m > limit) return false;
  }
  if (exp10 < 0) {
    if (exp10 < -36) { out = 0; exact = false; return true; }
    I div = 1;
    for (int k = 0; k < -exp10; ++k) div *= 10;
    I r = m % div;
    m = m / div + (2 * r >= div ? 1 : 0);
    exact = r == 0;
  }
  if (m > limit) return false;
  out = static_cast<std::int64_t>(m);
  return true;
}

double toDouble(const Decimal& d, int exp10) {
  std::string s = d.digits + "e" + std::to_string(d.exp10 + exp10);
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range) return d.digits == "0" ? 0 : HUGE_VAL;
  return v;
}

// Parses and checks the common shape; returns the unit found (nullptr = none).
const Unit* parseCommon(std::string_view raw, QuantityKind kind, const std::string& keyPath,
                        const InputLocation& where, Decimal& d) {
  std::string_view text = trim(raw);
  std::string_view unitText;
  if (text.empty()) throw InputError(where, keyPath, description(kind), "nothing");
  if (!splitNumber(text, d, unitText)) fail(kind, text, keyPath, where, {});
  if (d.negative && d.digits != "0") fail(kind, text, keyPath, where, "negative values are not allowed");
  const bool needsUnit = !units(kind).empty();
  if (unitText.empty()) {
    if (needsUnit && d.digits != "0")
      fail(kind, text, keyPath, where,
           "add a unit: '" + std::string(text) + " " + suggestedUnit(kind) + "'?");
    return nullptr;
  }
  if (kind == QuantityKind::Fraction && unitText == "%") {
    d.exp10 -= 2;
    return nullptr;
  }
  for (const Unit& u : units(kind))
    if (u.name == unitText) return &u;
  std::string number(text.substr(0, text.size() - unitText.size()));
  number = std::string(trim(number));
  std::string hint = needsUnit ? "valid units: " + validUnits(kind) : "write a plain number";
  if (kind == QuantityKind::Bytes) {
    for (const Unit& u : units(QuantityKind::Bandwidth))
      if (u.bits && u.name.substr(0, u.name.size() - 2) == unitText)
        hint = std::string("'").append(unitText).append("' is bits, sizes are in bytes: '")
                   .append(number).append(" ").append(unitText.substr(0, unitText.size() - 1)).append("B'?");
    if (unitText.size() > 2 && unitText.substr(unitText.size() - 2) == "/s")
      hint = "this is a size, not a bandwidth: drop '/s'";
  } else if (kind == QuantityKind::Bandwidth) {
    for (const Unit& u : units(QuantityKind::Bytes))
      if (u.name == unitText) hint = "a bandwidth needs '/s': '" + number + " " + std::string(unitText) + "/s'?";
  } else if (kind == QuantityKind::Fraction) {
    hint = "write a plain number or a percentage such as '80 %'";
  }
  fail(kind, text, keyPath, where, hint);
}

}  // namespace

double parseQuantity(std::string_view text, QuantityKind kind, const std::string& keyPath,
                     const InputLocation& where) {
  switch (kind) {
    case QuantityKind::Time: return static_cast<double>(parseTime(text, keyPath, where));
    case QuantityKind::Bytes: return static_cast<double>(parseBytes(text, keyPath, where));
    default: break;
  }
  Decimal d;
  const Unit* u = parseCommon(text, kind, keyPath, where, d);
  if (kind == QuantityKind::Count) {
    std::int64_t v = 0;
    bool exact = true;
    if (!d.plainInteger || !toInteger(d, 0, 1, v, exact))
      fail(kind, trim(text), keyPath, where, d.plainInteger ? "value out of range" : "write a whole number");
    return static_cast<double>(v);
  }
  double v = toDouble(d, u ? u->exp10 : 0);
  if (u) v = std::ldexp(v, 10 * u->pow1024) / (u->bits ? 8 : 1);  // exact power-of-two scaling
  if (!std::isfinite(v)) fail(kind, trim(text), keyPath, where, "value out of range");
  return v;
}

Time parseTime(std::string_view text, const std::string& keyPath, const InputLocation& where) {
  Decimal d;
  const Unit* u = parseCommon(text, QuantityKind::Time, keyPath, where, d);
  std::int64_t v = 0;
  bool exact = true;
  if (!toInteger(d, u ? u->exp10 : 0, 1, v, exact))
    fail(QuantityKind::Time, trim(text), keyPath, where, "value out of range");
  return v;  // sub-picosecond digits round to the nearest picosecond
}

std::int64_t parseBytes(std::string_view text, const std::string& keyPath,
                        const InputLocation& where) {
  Decimal d;
  const Unit* u = parseCommon(text, QuantityKind::Bytes, keyPath, where, d);
  std::int64_t v = 0, mul = 1;
  for (int k = 0; u && k < u->pow1024; ++k) mul *= 1024;
  bool exact = true;
  if (!toInteger(d, u ? u->exp10 : 0, mul, v, exact))
    fail(QuantityKind::Bytes, trim(text), keyPath, where, "value out of range");
  if (!exact) fail(QuantityKind::Bytes, trim(text), keyPath, where, {}, "a whole number of bytes");
  return v;
}

std::string formatNumber(double value) {
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, p);
}

namespace {

// `v / 10^k` as exact decimal text, for integers (time, bytes).
std::string scaledInteger(std::int64_t v, int k) {
  std::int64_t div = 1;
  for (int i = 0; i < k; ++i) div *= 10;
  std::string s = std::to_string(v / div);
  std::string frac = std::to_string(v % div);
  if (k == 0) return s;
  frac = std::string(static_cast<size_t>(k) - frac.size(), '0') + frac;
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  return frac.empty() ? s : s + "." + frac;
}

// Shortest round-trip digits of v (> 0) moved by 10^-shift, as plain decimal text.
std::string shiftedDecimal(double v, int shift) {
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string s(buf, p);
  size_t e = s.find('e');
  int exp10 = std::stoi(s.substr(e + 1));
  std::string digits;
  for (char c : s.substr(0, e))
    if (isDigit(c)) digits += c;
  int point = 1 + exp10 - shift;  // digits before the decimal point
  if (point <= 0) return "0." + std::string(static_cast<size_t>(-point), '0') + digits;
  if (static_cast<size_t>(point) >= digits.size())
    return digits + std::string(static_cast<size_t>(point) - digits.size(), '0');
  return digits.substr(0, static_cast<size_t>(point)) + "." + digits.substr(static_cast<size_t>(point));
}

}  // namespace

std::string formatTime(Time t) {
  if (t == 0) return "0 ns";
  if (t < 0) return std::string("-").append(formatTime(-t));
  static const std::pair<Time, const char*> scale[] = {
      {kSecond, "s"}, {kMillisecond, "ms"}, {kMicrosecond, "us"}, {kNanosecond, "ns"}};
  int k = 12;
  for (auto [unit, name] : scale) {
    if (t >= unit) return scaledInteger(t, k) + " " + name;
    k -= 3;
  }
  return std::to_string(t) + " ps";
}

std::string formatBytes(std::int64_t b) {
  if (b <= 0) return std::to_string(b) + " B";
  static const char* binary[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  static const char* decimal[] = {"B", "KB", "MB", "GB", "TB"};
  if (b % 1024 == 0) {
    int k = 1;
    while (k < 4 && b % (std::int64_t{1} << (10 * (k + 1))) == 0) ++k;
    return std::to_string(b >> (10 * k)) + " " + binary[k];
  }
  int k = 0;
  for (std::int64_t u = 1000; k < 4 && b >= u; u *= 1000) ++k;
  return scaledInteger(b, 3 * k) + " " + decimal[k];
}

std::string formatQuantity(double value, QuantityKind kind) {
  switch (kind) {
    case QuantityKind::Time: return formatTime(static_cast<Time>(std::llround(value)));
    case QuantityKind::Bytes: return formatBytes(static_cast<std::int64_t>(std::llround(value)));
    case QuantityKind::Count: return std::to_string(static_cast<std::int64_t>(std::llround(value)));
    case QuantityKind::Fraction: return formatNumber(value);
    case QuantityKind::Bandwidth: break;
  }
  if (!(value > 0)) return formatNumber(value) + " B/s";
  static const char* decimal[] = {"B/s", "KB/s", "MB/s", "GB/s", "TB/s"};
  static const char* binary[] = {"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"};
  int k = 0;
  while (k < 4 && value >= std::pow(10.0, 3 * (k + 1))) ++k;
  std::string text = shiftedDecimal(value, 3 * k);
  // Binary units only when they give a shorter number ("1 GiB/s", not "1.073741824 GB/s").
  if (text.find('.') != std::string::npos && value < 9e15 && value == std::floor(value)) {
    auto whole = static_cast<std::int64_t>(value);
    for (int b = 4; b >= 1; --b) {
      if (whole % (std::int64_t{1} << (10 * b)) != 0) continue;
      std::string number = std::to_string(whole >> (10 * b));
      if (number.size() < text.size()) return number + " " + binary[b];
      break;
    }
  }
  return text + " " + decimal[k];
}

std::string validUnits(QuantityKind kind) {
  static const std::string lists[] = {
      "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB",
      "B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s, b/s, Kb/s, Mb/s, Gb/s, Tb/s",
      "ps, ns, us (or \xC2\xB5s), ms, s", "none or %", "none"};
  return lists[static_cast<int>(kind)];
}

const char* siUnit(QuantityKind kind) {
  static const char* names[] = {"B", "B/s", "ps", "", ""};
  return names[static_cast<int>(kind)];
}

}  // namespace fl
