// Quantities: parsing (units, spacing, bits vs bytes, rounding), canonical formatting,
// exact round trips and the error messages users see. Expected values are written out
// by hand from the unit definitions, never taken from the code under test.
#include <QtTest>

#include <random>

#include "scenario/quantity.h"

using fl::QuantityKind;
Q_DECLARE_METATYPE(fl::QuantityKind)

class TestQuantity : public QObject {
  Q_OBJECT

 private slots:
  void parse_data();
  void parse();
  void parseTimeExact_data();
  void parseTimeExact();
  void parseBytesExact_data();
  void parseBytesExact();
  void format_data();
  void format();
  void errors_data();
  void errors();
  void errorCarriesPathAndLocation();
  void randomRoundTrips();
};

void TestQuantity::parse_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<QuantityKind>("kind");
  QTest::addColumn<double>("expected");
  const auto bw = QuantityKind::Bandwidth, by = QuantityKind::Bytes, fr = QuantityKind::Fraction;
  QTest::newRow("25 GB/s") << "25 GB/s" << bw << 25e9;
  QTest::newRow("no space") << "25GB/s" << bw << 25e9;
  QTest::newRow("450 GB/s") << "450 GB/s" << bw << 450e9;
  QTest::newRow("10 Gb/s is bits") << "10 Gb/s" << bw << 1.25e9;
  QTest::newRow("100 Gbps") << "100 Gbps" << bw << 12.5e9;
  QTest::newRow("800 Mb/s") << "800 Mb/s" << bw << 1e8;
  QTest::newRow("8 b/s") << "8 b/s" << bw << 1.0;
  QTest::newRow("1 TB/s") << "1 TB/s" << bw << 1e12;
  QTest::newRow("1.8 TB/s") << "1.8 TB/s" << bw << 1.8e12;
  QTest::newRow("12.3 GB/s") << "12.3 GB/s" << bw << 12.3e9;
  QTest::newRow("20.6 GB/s") << "20.6 GB/s" << bw << 20.6e9;
  QTest::newRow("1 GiB/s") << "1 GiB/s" << bw << 1073741824.0;
  QTest::newRow("2 KiB/s") << "2 KiB/s" << bw << 2048.0;
  QTest::newRow("1e3 MB/s") << "1e3 MB/s" << bw << 1e9;
  QTest::newRow("5 kB/s") << "5 kB/s" << bw << 5000.0;
  QTest::newRow("padded") << "  9 TB/s " << bw << 9e12;
  QTest::newRow("bare zero bandwidth") << "0" << bw << 0.0;
  QTest::newRow("64 KiB") << "64 KiB" << by << 65536.0;
  QTest::newRow("256 B") << "256 B" << by << 256.0;
  QTest::newRow("16B") << "16B" << by << 16.0;
  QTest::newRow("1.5 KiB") << "1.5 KiB" << by << 1536.0;
  QTest::newRow("0.5 KB") << "0.5 KB" << by << 500.0;
  QTest::newRow("10 kB") << "10 kB" << by << 10000.0;
  QTest::newRow("1 MB") << "1 MB" << by << 1e6;
  QTest::newRow("64 MiB") << "64 MiB" << by << 67108864.0;
  QTest::newRow("2 GiB") << "2 GiB" << by << 2147483648.0;
  QTest::newRow("1 TB") << "1 TB" << by << 1e12;
  QTest::newRow("1 TiB") << "1 TiB" << by << 1099511627776.0;
  QTest::newRow("0.8") << "0.8" << fr << 0.8;
  QTest::newRow("80 %") << "80 %" << fr << 0.8;
  QTest::newRow("80%") << "80%" << fr << 0.8;
  QTest::newRow("98.5 %") << "98.5 %" << fr << 0.985;
  QTest::newRow("fraction 1") << "1" << fr << 1.0;
  QTest::newRow("count 8") << "8" << QuantityKind::Count << 8.0;
  QTest::newRow("count 1000000") << "1000000" << QuantityKind::Count << 1e6;
  QTest::newRow("time via double") << "1.5 us" << QuantityKind::Time << 1.5e6;
}

void TestQuantity::parse() {
  QFETCH(QString, text);
  QFETCH(QuantityKind, kind);
  QFETCH(double, expected);
  const double v = fl::parseQuantity(text.toStdString(), kind);
  QVERIFY2(v == expected, qPrintable(QString("got %1, want %2").arg(v, 0, 'g', 17).arg(expected, 0, 'g', 17)));
}

void TestQuantity::parseTimeExact_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<qint64>("ps");
  QTest::newRow("250 ns") << "250 ns" << qint64(250'000);
  QTest::newRow("250ns") << "250ns" << qint64(250'000);
  QTest::newRow("1.5 us") << "1.5 us" << qint64(1'500'000);
  QTest::newRow("1.5 micro sign") << QString::fromUtf8("1.5 \xC2\xB5s") << qint64(1'500'000);
  QTest::newRow("1.5 greek mu") << QString::fromUtf8("1.5 \xCE\xBCs") << qint64(1'500'000);
  QTest::newRow("7 ps") << "7 ps" << qint64(7);
  QTest::newRow("2 ms") << "2 ms" << qint64(2'000'000'000);
  QTest::newRow("10 s") << "10 s" << qint64(10'000'000'000'000);
  QTest::newRow("1e3 ns") << "1e3 ns" << qint64(1'000'000);
  QTest::newRow("0.1 ns") << "0.1 ns" << qint64(100);
  QTest::newRow("0.0004 ns rounds down") << "0.0004 ns" << qint64(0);
  QTest::newRow("0.0005 ns rounds up") << "0.0005 ns" << qint64(1);
  QTest::newRow("1.2345 ps rounds") << "1.2345 ps" << qint64(1);
  QTest::newRow("bare zero") << "0" << qint64(0);
  QTest::newRow("5 min of ps") << "300 s" << qint64(300'000'000'000'000);
}

void TestQuantity::parseTimeExact() {
  QFETCH(QString, text);
  QFETCH(qint64, ps);
  QCOMPARE(qint64(fl::parseTime(text.toStdString())), ps);
}

void TestQuantity::parseBytesExact_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<qint64>("bytes");
  QTest::newRow("64 KiB") << "64 KiB" << qint64(65536);
  QTest::newRow("4 TiB") << "4 TiB" << qint64(4398046511104);
  QTest::newRow("1.25 GB") << "1.25 GB" << qint64(1'250'000'000);
  QTest::newRow("0.25 KiB") << "0.25 KiB" << qint64(256);
}

void TestQuantity::parseBytesExact() {
  QFETCH(QString, text);
  QFETCH(qint64, bytes);
  QCOMPARE(qint64(fl::parseBytes(text.toStdString())), bytes);
}

void TestQuantity::format_data() {
  QTest::addColumn<double>("value");
  QTest::addColumn<QuantityKind>("kind");
  QTest::addColumn<QString>("text");
  const auto bw = QuantityKind::Bandwidth, by = QuantityKind::Bytes, t = QuantityKind::Time;
  QTest::newRow("25 GB/s") << 25e9 << bw << "25 GB/s";
  QTest::newRow("1.25 GB/s") << 1.25e9 << bw << "1.25 GB/s";
  QTest::newRow("450 GB/s") << 450e9 << bw << "450 GB/s";
  QTest::newRow("1.8 TB/s") << 1.8e12 << bw << "1.8 TB/s";
  QTest::newRow("12.3 GB/s") << 12.3e9 << bw << "12.3 GB/s";
  QTest::newRow("9000 TB/s") << 9e15 << bw << "9000 TB/s";
  QTest::newRow("999 B/s") << 999.0 << bw << "999 B/s";
  QTest::newRow("1 KB/s") << 1000.0 << bw << "1 KB/s";
  QTest::newRow("0.5 B/s") << 0.5 << bw << "0.5 B/s";
  QTest::newRow("0.001 B/s") << 0.001 << bw << "0.001 B/s";
  QTest::newRow("1 GiB/s") << 1073741824.0 << bw << "1 GiB/s";
  QTest::newRow("0 B/s") << 0.0 << bw << "0 B/s";
  QTest::newRow("250 ns") << 250e3 << t << "250 ns";
  QTest::newRow("1.5 us") << 1.5e6 << t << "1.5 us";
  QTest::newRow("1.234567 us") << 1234567.0 << t << "1.234567 us";
  QTest::newRow("2.000001 us") << 2000001.0 << t << "2.000001 us";
  QTest::newRow("20 us") << 20e6 << t << "20 us";
  QTest::newRow("10 s") << 1e13 << t << "10 s";
  QTest::newRow("999 ps") << 999.0 << t << "999 ps";
  QTest::newRow("1 ps") << 1.0 << t << "1 ps";
  QTest::newRow("1 ns") << 1000.0 << t << "1 ns";
  QTest::newRow("0 ns") << 0.0 << t << "0 ns";
  QTest::newRow("64 KiB") << 65536.0 << by << "64 KiB";
  QTest::newRow("64 MiB") << 67108864.0 << by << "64 MiB";
  QTest::newRow("1 TiB") << 1099511627776.0 << by << "1 TiB";
  QTest::newRow("1000 KiB") << 1024000.0 << by << "1000 KiB";
  QTest::newRow("256 B") << 256.0 << by << "256 B";
  QTest::newRow("1.536 KB") << 1536.0 << by << "1.536 KB";
  QTest::newRow("1 KB") << 1000.0 << by << "1 KB";
  QTest::newRow("1 MB") << 1e6 << by << "1 MB";
  QTest::newRow("123.456789 MB") << 123456789.0 << by << "123.456789 MB";
  QTest::newRow("1 B") << 1.0 << by << "1 B";
  QTest::newRow("0 B") << 0.0 << by << "0 B";
  QTest::newRow("fraction 0.98") << 0.98 << QuantityKind::Fraction << "0.98";
  QTest::newRow("fraction 1") << 1.0 << QuantityKind::Fraction << "1";
  QTest::newRow("count 18") << 18.0 << QuantityKind::Count << "18";
}

// Canonical text, and the text reads back as exactly the same value.
void TestQuantity::format() {
  QFETCH(double, value);
  QFETCH(QuantityKind, kind);
  QFETCH(QString, text);
  const std::string s = fl::formatQuantity(value, kind);
  QCOMPARE(QString::fromStdString(s), text);
  QVERIFY(fl::parseQuantity(s, kind) == value);
}

void TestQuantity::errors_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<QuantityKind>("kind");
  QTest::addColumn<QString>("expected");
  QTest::addColumn<QString>("found");
  QTest::addColumn<QString>("hint");
  const auto bw = QuantityKind::Bandwidth, by = QuantityKind::Bytes, t = QuantityKind::Time;
  QTest::newRow("bare bandwidth") << "450" << bw << "a bandwidth such as '450 GB/s'" << "'450'"
                                  << "add a unit: '450 GB/s'?";
  QTest::newRow("bare time") << "250" << t << "a time such as '250 ns'" << "'250'" << "add a unit: '250 ns'?";
  QTest::newRow("bare bytes") << "64" << by << "a byte size such as '64 KiB'" << "'64'" << "add a unit: '64 B'?";
  QTest::newRow("size as bandwidth") << "25 GB" << bw << "a bandwidth" << "'25 GB'" << "'25 GB/s'?";
  QTest::newRow("unknown rate unit") << "25 GBs" << bw << "a bandwidth" << "'25 GBs'"
                                     << "valid units: B/s, KB/s, MB/s, GB/s, TB/s";
  QTest::newRow("unknown time unit") << "5 furlongs" << t << "a time" << "'5 furlongs'" << "valid units: ps, ns, us";
  QTest::newRow("time unit for bandwidth") << "1 s" << bw << "a bandwidth" << "'1 s'" << "valid units:";
  QTest::newRow("bits for bytes") << "10 Kb" << by << "a byte size" << "'10 Kb'" << "'Kb' is bits";
  QTest::newRow("rate for bytes") << "5 GB/s" << by << "a byte size" << "'5 GB/s'" << "drop '/s'";
  QTest::newRow("negative") << "-5 GB/s" << bw << "a bandwidth" << "'-5 GB/s'" << "negative";
  QTest::newRow("negative time") << "-1 ns" << t << "a time" << "'-1 ns'" << "negative";
  QTest::newRow("garbage") << "abc" << t << "a time such as '250 ns'" << "'abc'" << "";
  QTest::newRow("nan") << "nan" << bw << "a bandwidth" << "'nan'" << "";
  QTest::newRow("empty") << "   " << bw << "a bandwidth" << "nothing" << "";
  QTest::newRow("fractional bytes") << "1.3 B" << by << "a whole number of bytes" << "'1.3 B'" << "";
  QTest::newRow("fractional count") << "1.5" << QuantityKind::Count << "integer" << "'1.5'" << "whole number";
  QTest::newRow("bad percent") << "80 percent" << QuantityKind::Fraction << "a fraction" << "'80 percent'"
                               << "percentage";
  QTest::newRow("overflow") << "1e400 GB/s" << bw << "a bandwidth" << "'1e400 GB/s'" << "out of range";
  QTest::newRow("time overflow") << "1e9 s" << t << "a time" << "'1e9 s'" << "out of range";
  QTest::newRow("double unit") << "25 GB/s/s" << bw << "a bandwidth" << "'25 GB/s/s'" << "valid units";
}

void TestQuantity::errors() {
  QFETCH(QString, text);
  QFETCH(QuantityKind, kind);
  QFETCH(QString, expected);
  QFETCH(QString, found);
  QFETCH(QString, hint);
  try {
    fl::parseQuantity(text.toStdString(), kind);
    QFAIL("no error");
  } catch (const fl::InputError& e) {
    QVERIFY2(QString::fromStdString(e.expected()).contains(expected), e.what());
    QCOMPARE(QString::fromStdString(e.found()), found);
    QVERIFY2(QString::fromStdString(e.hint()).contains(hint), e.what());
  }
}

void TestQuantity::errorCarriesPathAndLocation() {
  try {
    fl::parseTime("12 parsecs", "topology.link.latency", {"f.yaml", 7, 12});
    QFAIL("no error");
  } catch (const fl::InputError& e) {
    QCOMPARE(e.keyPath(), std::string("topology.link.latency"));
    QCOMPARE(e.where().line, 7);
    QVERIFY(std::string(e.what()).rfind("f.yaml:7:12: topology.link.latency: expected a time", 0) == 0);
  }
}

// parse(format(x)) == x for values parse can produce, across many magnitudes.
void TestQuantity::randomRoundTrips() {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> mantissa(1.0, 10.0);
  std::uniform_int_distribution<int> exponent(-3, 15);
  for (int i = 0; i < 20000; ++i) {
    const double bw = mantissa(rng) * std::pow(10.0, exponent(rng));
    const std::string s = fl::formatQuantity(bw, QuantityKind::Bandwidth);
    QVERIFY2(fl::parseQuantity(s, QuantityKind::Bandwidth) == bw, s.c_str());
    const double frac = mantissa(rng) / 10.0;
    QVERIFY(fl::parseQuantity(fl::formatQuantity(frac, QuantityKind::Fraction), QuantityKind::Fraction) == frac);
    const fl::Time t = static_cast<fl::Time>(rng() % 100'000'000'000'000'000ull);
    QCOMPARE(fl::parseTime(fl::formatTime(t)), t);
    const std::int64_t b = static_cast<std::int64_t>(rng() >> (1 + rng() % 63));
    QCOMPARE(fl::parseBytes(fl::formatBytes(b)), b);
    const std::int64_t kib = static_cast<std::int64_t>(rng() % 1'000'000) * 1024;
    QCOMPARE(fl::parseBytes(fl::formatBytes(kib)), kib);
  }
}

QTEST_GUILESS_MAIN(TestQuantity)
#include "test_quantity.moc"
