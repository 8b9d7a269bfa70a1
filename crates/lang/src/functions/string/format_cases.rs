//! The `format` verb engine's cases as `formatlist` uses it (formerly
//! tested against a second copy of the engine in `string`).

#[cfg(test)]
mod cases {
    use cty::{Type, Value};

    use crate::functions::format_values;

    /// The shape the formatlist engine had: the message of any error.
    fn format_fsm(format: &str, args: &[Value]) -> Result<String, String> {
        format_values(format, args).map_err(|e| e.message().to_string())
    }

    fn n(s: &str) -> Value {
        Value::parse_number(s).unwrap()
    }

    #[test]
    fn verbs() {
        let s = Value::string;
        let cases: Vec<(&str, Vec<Value>, &str)> = vec![
            ("hello", vec![], "hello"),
            ("100%%", vec![], "100%"),
            ("%s", vec![s("x")], "x"),
            ("%[2]s %[1]s", vec![s("a"), s("b")], "b a"),
            ("%[2]s %s", vec![s("a"), s("b"), s("c")], "b c"),
            // Width and precision come before the argument index.
            ("%5[1]d|%-4.1[1]f|", vec![n("1")], "    1|1.0 |"),
            // Number verbs go through Go's fmt, which stops reading a
            // width or precision past 10^6 (terraform console agrees).
            (
                "%999999999d",
                vec![n("1")],
                "%!(NOVERB)%!(EXTRA *big.Int=1)",
            ),
            (
                "%99999999x",
                vec![n("-255")],
                "%!(NOVERB)%!(EXTRA *big.Int=-255)",
            ),
            (
                "%.999999999f",
                vec![n("1")],
                "%!(NOVERB)%!(EXTRA *big.Float=1)",
            ),
            (
                "%-+999999999.5f",
                vec![n("-1.5")],
                "%!(NOVERB)%!(EXTRA *big.Float=-1.5)",
            ),
            (
                "%2.99999999f",
                vec![n("1.5")],
                "%!(NOVERB)%!(EXTRA *big.Float=1.5)",
            ),
            (
                "%.99999999e",
                vec![n("1e30")],
                "%!(NOVERB)%!(EXTRA *big.Float=1e+30)",
            ),
            (
                "%999999999d %[1]d",
                vec![n("1")],
                "%!(NOVERB)%!(EXTRA *big.Int=1) 1",
            ),
            ("%.00000000000000000005f", vec![n("1.5")], "1.50000"),
            // go-cty ignores widths for %t.
            ("%999999999t", vec![Value::bool(true)], "true"),
            (
                "%5.2f|%-8.3e|%+g|% d|%08.3f|%x|%#x|%#o|%b",
                vec![
                    n("3.14159"),
                    n("1234.5"),
                    n("1e21"),
                    n("5"),
                    n("-3.14159"),
                    n("255"),
                    n("255"),
                    n("8"),
                    n("5"),
                ],
                " 3.14|1.234e+03|+1e+21| 5|-003.142|ff|0xff|010|101",
            ),
            (
                "%.2s|%5s|%-5s|%05s|%q",
                vec![s("héllo"), s("ab"), s("ab"), s("ab"), s("a\"b")],
                "hé|   ab|ab   |000ab|\"a\\\"b\"",
            ),
            ("%t", vec![s("true")], "true"),
            ("%5t", vec![Value::bool(true)], "true"),
            ("%v", vec![n("1e400")], "1e+400"),
            ("%x", vec![n("-255")], "-ff"),
            ("%X", vec![n("255")], "FF"),
            ("%.3x", vec![n("5")], "005"),
            ("%.d", vec![n("0")], ""),
            ("%d", vec![s("12")], "12"),
            ("%v", vec![Value::null(Type::String)], "null"),
            ("%#v", vec![s("a")], "\"a\""),
            ("%v", vec![Value::tuple(vec![n("1"), s("b")])], "[1,\"b\"]"),
            ("%v", vec![Value::bool(true)], "true"),
            ("%f", vec![n("1.5")], "1.500000"),
            ("%e", vec![n("1.5")], "1.500000e+00"),
            ("%g", vec![n("0.0001")], "0.0001"),
            ("%.3g", vec![n("3.14159")], "3.14"),
            ("%05d", vec![n("-42")], "-0042"),
            ("%-5d|", vec![n("42")], "42   |"),
            ("%+d", vec![n("42")], "+42"),
            ("%s", vec![n("1.5")], "1.5"),
            ("%s", vec![Value::bool(false)], "false"),
            ("%5s", vec![s("日本")], "   日本"),
        ];
        for (f, args, want) in cases {
            assert_eq!(format_fsm(f, &args).as_deref(), Ok(want), "format {f:?}");
        }
    }

    #[test]
    fn errors() {
        let s = Value::string;
        let cases: Vec<(&str, Vec<Value>, &str)> = vec![
            ("abc%", vec![], "invalid format string starting at offset 4"),
            (
                "abc%5",
                vec![],
                "invalid format string starting at offset 5",
            ),
            (
                "%5!",
                vec![n("1")],
                "unrecognized format character '!' at offset 2",
            ),
            (
                "%*d",
                vec![n("1")],
                "unrecognized format character '*' at offset 1",
            ),
            (
                "%.*d",
                vec![n("1")],
                "unrecognized format character '*' at offset 2",
            ),
            (
                "%[0]d",
                vec![n("1")],
                "unrecognized format character '0' at offset 2",
            ),
            (
                "%y",
                vec![n("1")],
                "unsupported format verb 'y' in \"%y\" at offset 0",
            ),
            (
                "%[2]d %d %[1]d",
                vec![n("1"), n("2")],
                "not enough arguments for \"%d\" at 6: need index 3 but have 2 total",
            ),
            (
                "%d",
                vec![n("1.5")],
                "unsupported value for \"%d\" at 0: an integer is required",
            ),
            (
                "%d",
                vec![s("x")],
                "unsupported value for \"%d\" at 0: a number is required",
            ),
            (
                "%s",
                vec![Value::null(Type::String)],
                "unsupported value for \"%s\" at 0: null value cannot be formatted",
            ),
            (
                "%s",
                vec![Value::tuple(vec![n("1")])],
                "unsupported value for \"%s\" at 0: string required",
            ),
            (
                "%[1]5d",
                vec![n("1")],
                "unrecognized format character '5' at offset 4",
            ),
            (
                "%[1].5f",
                vec![n("1")],
                "unrecognized format character '.' at offset 4",
            ),
            (
                "%999999999d",
                vec![n("1.5")],
                "unsupported value for \"%999999999d\" at 0: an integer is required",
            ),
            (
                "%99999999999s",
                vec![s("x")],
                "unsupported value for \"%99999999999s\" at 0: width or precision too large",
            ),
        ];
        for (f, args, want) in cases {
            assert_eq!(format_fsm(f, &args), Err(want.to_string()), "format {f:?}");
        }
    }
}
