package com.pushtally.android.core;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the client needs: its own outbox lines, the events it posts and the collector's answers.
 *
 * <p>Objects are read into insertion-ordered maps, arrays into lists, integers into {@link Long}, other numbers
 * into {@link BigDecimal} (so a timestamp keeps its exact digits through the outbox), and {@code true},
 * {@code false} and {@code null} into {@link Boolean} and {@code null}. Writing takes the same types, plus
 * {@link Integer}. Parsing is strict: anything that is not one complete JSON value is an error, so a damaged
 * outbox line is never half read.</p>
 */
public final class Json {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Json() {}

    /** Thrown for text that is not one complete JSON value. */
    public static final class ParseException extends Exception {
        private static final long serialVersionUID = 1L;

        ParseException(String message, int offset) {
            super(message + " at offset " + offset);
        }
    }

    /**
     * Reads one JSON value.
     *
     * @param text the JSON text; whitespace around the value is allowed, anything else after it is not
     * @return a {@link Map}, {@link List}, {@link String}, {@link Long}, {@link BigDecimal}, {@link Boolean} or null
     * @throws ParseException when the text is not exactly one JSON value
     */
    public static Object parse(String text) throws ParseException {
        Reader reader = new Reader(text);
        reader.skipWhitespace();
        Object value = reader.value(0);
        reader.skipWhitespace();
        if (reader.position != text.length()) throw new ParseException("unexpected text after the value", reader.position);
        return value;
    }

    /**
     * Reads a JSON object.
     *
     * @throws ParseException when the text is not exactly one JSON object
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) throws ParseException {
        Object value = parse(text);
        if (!(value instanceof Map)) throw new ParseException("not a JSON object", 0);
        return (Map<String, Object>) value;
    }

    /**
     * Writes a value as compact JSON, keys in the map's own order.
     *
     * @throws IllegalArgumentException for a type JSON has no form for (or a non-finite double)
     */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    /** A JSON string literal for {@code text}, quotes included. */
    public static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2);
        quote(text, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            quote((String) value, out);
        } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) {
            out.append(value);
        } else if (value instanceof BigDecimal) {
            out.append(((BigDecimal) value).toPlainString());
        } else if (value instanceof Double) {
            double number = (Double) value;
            if (Double.isNaN(number) || Double.isInfinite(number)) throw new IllegalArgumentException("JSON has no " + number);
            out.append(BigDecimal.valueOf(number).toPlainString());
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                if (!first) out.append(',');
                first = false;
                quote(String.valueOf(entry.getKey()), out);
                out.append(':');
                write(entry.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object element : (List<?>) value) {
                if (!first) out.append(',');
                first = false;
                write(element, out);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }

    private static void quote(String text, StringBuilder out) {
        out.append('"');
        for (int index = 0; index < text.length(); index++) {
            char character = text.charAt(index);
            switch (character) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    // Control characters must be escaped; U+2028 and U+2029 too, so a line stays one NDJSON line
                    // for readers that treat them as line ends.
                    if (character < 0x20 || character == '\u2028' || character == '\u2029') {
                        out.append("\\u").append(HEX[(character >> 12) & 0xF]).append(HEX[(character >> 8) & 0xF])
                                .append(HEX[(character >> 4) & 0xF]).append(HEX[character & 0xF]);
                    } else {
                        out.append(character);
                    }
            }
        }
        out.append('"');
    }

    /** A recursive-descent reader; nesting is bounded so hostile input cannot overflow the stack. */
    private static final class Reader {
        private static final int MAX_DEPTH = 64;
        private final String text;
        private int position;

        Reader(String text) {
            this.text = text;
        }

        void skipWhitespace() {
            while (position < text.length()) {
                char character = text.charAt(position);
                if (character != ' ' && character != '\t' && character != '\n' && character != '\r') return;
                position++;
            }
        }

        Object value(int depth) throws ParseException {
            if (depth > MAX_DEPTH) throw new ParseException("nested too deeply", position);
            if (position >= text.length()) throw new ParseException("unexpected end", position);
            char character = text.charAt(position);
            switch (character) {
                case '{': return object(depth);
                case '[': return array(depth);
                case '"': return string();
                case 't': return literal("true", Boolean.TRUE);
                case 'f': return literal("false", Boolean.FALSE);
                case 'n': return literal("null", null);
                default:
                    if (character == '-' || (character >= '0' && character <= '9')) return number();
                    throw new ParseException("unexpected character", position);
            }
        }

        private Object literal(String word, Object value) throws ParseException {
            if (!text.startsWith(word, position)) throw new ParseException("unexpected word", position);
            position += word.length();
            return value;
        }

        private Map<String, Object> object(int depth) throws ParseException {
            Map<String, Object> map = new LinkedHashMap<String, Object>();
            position++;
            skipWhitespace();
            if (peek() == '}') {
                position++;
                return map;
            }
            while (true) {
                skipWhitespace();
                if (peek() != '"') throw new ParseException("expected a key", position);
                String key = string();
                skipWhitespace();
                expect(':');
                skipWhitespace();
                map.put(key, value(depth + 1));
                skipWhitespace();
                char next = peek();
                position++;
                if (next == '}') return map;
                if (next != ',') throw new ParseException("expected , or }", position - 1);
            }
        }

        private List<Object> array(int depth) throws ParseException {
            List<Object> list = new ArrayList<Object>();
            position++;
            skipWhitespace();
            if (peek() == ']') {
                position++;
                return list;
            }
            while (true) {
                skipWhitespace();
                list.add(value(depth + 1));
                skipWhitespace();
                char next = peek();
                position++;
                if (next == ']') return list;
                if (next != ',') throw new ParseException("expected , or ]", position - 1);
            }
        }

        private String string() throws ParseException {
            position++;
            StringBuilder out = new StringBuilder();
            while (true) {
                if (position >= text.length()) throw new ParseException("unterminated string", position);
                char character = text.charAt(position++);
                if (character == '"') return out.toString();
                if (character < 0x20) throw new ParseException("control character in a string", position - 1);
                if (character != '\\') {
                    out.append(character);
                    continue;
                }
                if (position >= text.length()) throw new ParseException("unterminated escape", position);
                char escaped = text.charAt(position++);
                switch (escaped) {
                    case '"': out.append('"'); break;
                    case '\\': out.append('\\'); break;
                    case '/': out.append('/'); break;
                    case 'b': out.append('\b'); break;
                    case 'f': out.append('\f'); break;
                    case 'n': out.append('\n'); break;
                    case 'r': out.append('\r'); break;
                    case 't': out.append('\t'); break;
                    case 'u':
                        if (position + 4 > text.length()) throw new ParseException("short \\u escape", position);
                        try {
                            out.append((char) Integer.parseInt(text.substring(position, position + 4), 16));
                        } catch (NumberFormatException notHex) {
                            throw new ParseException("bad \\u escape", position);
                        }
                        position += 4;
                        break;
                    default:
                        throw new ParseException("bad escape", position - 1);
                }
            }
        }

        private Object number() throws ParseException {
            int start = position;
            if (peek() == '-') position++;
            int digits = position;
            while (position < text.length() && isDigit(text.charAt(position))) position++;
            if (position == digits) throw new ParseException("expected digits", position);
            if (text.charAt(digits) == '0' && position - digits > 1) throw new ParseException("leading zero", digits);
            boolean integral = true;
            if (position < text.length() && text.charAt(position) == '.') {
                integral = false;
                position++;
                int fraction = position;
                while (position < text.length() && isDigit(text.charAt(position))) position++;
                if (position == fraction) throw new ParseException("expected fraction digits", position);
            }
            if (position < text.length() && (text.charAt(position) == 'e' || text.charAt(position) == 'E')) {
                integral = false;
                position++;
                if (position < text.length() && (text.charAt(position) == '+' || text.charAt(position) == '-')) position++;
                int exponent = position;
                while (position < text.length() && isDigit(text.charAt(position))) position++;
                if (position == exponent) throw new ParseException("expected exponent digits", position);
            }
            String literal = text.substring(start, position);
            if (integral) {
                try {
                    return Long.valueOf(literal);
                } catch (NumberFormatException tooLarge) {
                    return new BigDecimal(literal);
                }
            }
            return new BigDecimal(literal);
        }

        // ASCII digits only: Character.isDigit also takes other scripts' digits, which JSON does not.
        private static boolean isDigit(char character) {
            return character >= '0' && character <= '9';
        }

        private char peek() throws ParseException {
            if (position >= text.length()) throw new ParseException("unexpected end", position);
            return text.charAt(position);
        }

        private void expect(char character) throws ParseException {
            if (peek() != character) throw new ParseException("expected " + character, position);
            position++;
        }
    }
}
