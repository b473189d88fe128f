package com.pushtally.android.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PushPayloadTest {
    @Test
    void readsADataMessage() {
        Map<String, String> data = new HashMap<String, String>();
        data.put("push_id", "2018001");
        data.put("title", "Spring sale");
        data.put("body", "Up to 40% off");
        data.put("image", "https://cdn.example.com/sale.jpg");
        data.put("url", "/sale");
        data.put("channel_id", "offers");
        data.put("actions", "[{\"action\":\"later\",\"title\":\"Later\"},{\"action\":\"buy\",\"title\":\"Buy now\"},"
                + "{\"title\":\"no id\"},{\"action\":\"share\",\"title\":\"Share\"},{\"action\":\"fourth\",\"title\":\"Four\"}]");
        PushPayload payload = PushPayload.fromData(data);
        assertEquals("2018001", payload.pushId());
        assertEquals("Spring sale", payload.title());
        assertEquals("Up to 40% off", payload.body());
        assertEquals("https://cdn.example.com/sale.jpg", payload.image());
        assertEquals("/sale", payload.url());
        assertEquals("offers", payload.channelId());
        assertEquals(3, payload.actions().size(), "Android shows three buttons at most");
        assertEquals("later", payload.actions().get(0).id());
        assertEquals("Buy now", payload.actions().get(1).title());
        assertEquals("share", payload.actions().get(2).id());
    }

    @Test
    void aMessageWithoutAUsablePushIdIsNotPushTallys() {
        assertNull(PushPayload.fromData(new HashMap<String, String>()).pushId());
        Map<String, String> data = new HashMap<String, String>();
        data.put("push_id", "");
        assertNull(PushPayload.fromData(data).pushId());
        data.put("push_id", "line\nbreak");
        assertNull(PushPayload.fromData(data).pushId());
        assertNull(PushPayload.fromData(null).pushId());
    }

    @Test
    void unreadableActionsLeaveTheButtonsOut() {
        Map<String, String> data = new HashMap<String, String>();
        data.put("push_id", "1");
        data.put("actions", "[{\"action\":");
        assertTrue(PushPayload.fromData(data).actions().isEmpty());
        data.put("actions", "{\"action\":\"x\",\"title\":\"X\"}");
        assertTrue(PushPayload.fromData(data).actions().isEmpty());
        assertNull(PushPayload.fromData(data).image());
    }
}
