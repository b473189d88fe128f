package com.pushtally.android.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import org.junit.jupiter.api.Test;

class ClientConfigurationTest {
    @Test
    void aBuilderWithoutItsDirectoryIsCheckedNowAndBuiltOnceTheDirectoryIsGiven() {
        ClientConfiguration.Builder settings = ClientConfiguration.builder("https://collector.example.com/")
                .ingestKey("").maxMediaBytes(1024).mediaBudgetMillis(800).check();
        assertThrows(IllegalArgumentException.class, settings::build, "no directory yet");

        File directory = new File("/data/app-files/pushtally");
        ClientConfiguration built = settings.copy().directory(directory).app("com.example.news").build();
        assertEquals("https://collector.example.com", built.collector());
        assertEquals(directory, built.directory());
        assertNull(built.ingestKey(), "an empty key is no key");
        assertEquals(1024, built.maxMediaBytes());
        assertEquals(800, built.mediaBudgetMillis());
        assertEquals("com.example.news", built.app());

        // The copy changed alone: the original still has no directory and no app.
        assertThrows(IllegalArgumentException.class, settings::build);
        assertNull(settings.copy().directory(directory).build().app());
    }

    @Test
    void checkRefusesWhatBuildWouldRefuse() {
        assertThrows(IllegalArgumentException.class, () -> ClientConfiguration.builder("collector.example.com").check());
        assertThrows(IllegalArgumentException.class, () -> ClientConfiguration.builder(null).check());
        assertThrows(IllegalArgumentException.class,
                () -> ClientConfiguration.builder("https://collector.example.com").maxMediaBytes(0).check());
        assertThrows(IllegalArgumentException.class,
                () -> ClientConfiguration.builder("https://collector.example.com").mediaBudgetMillis(-1).check());
    }
}
