package com.pushtally.android.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void writesAndReadsBackExactly() throws Exception {
        Map<String, Object> value = new LinkedHashMap<String, Object>();
        value.put("text", "quote \" backslash \\ newline \n tab \t nul \u0000 line-separator \u2028 新品");
        value.put("ts", new BigDecimal("1763625600.120"));
        value.put("count", 42L);
        value.put("list", Arrays.<Object>asList(true, false, null, -1L));
        String written = Json.write(value);
        assertEquals(-1, written.indexOf('\n'), "one line");
        assertEquals(value, Json.parse(written));
        assertEquals("{\"a\":1.5}", Json.write(Json.parse(" {\"a\" : 1.5} ")));
    }

    @Test
    void refusesWhatIsNotOneCompleteValue() {
        for (String bad : new String[] {"", "{", "{\"a\":1", "{\"a\":1}x", "[1,]", "01", "\"\\x\"", "tru", "\"raw\ttab\"", "1.", "١"}) {
            assertThrows(Json.ParseException.class, () -> Json.parse(bad), bad);
        }
    }

    @Test
    void refusesNestingDeepEnoughToOverflowTheStack() {
        StringBuilder deep = new StringBuilder();
        for (int index = 0; index < 10_000; index++) deep.append('[');
        assertThrows(Json.ParseException.class, () -> Json.parse(deep.toString()));
    }
}
