package com.pushtally.android.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ImageScaleTest {
    @Test
    void samplesByPowersOfTwoUntilTheLongerEdgeFits() {
        assertEquals(1, ImageScale.sampleSize(1024, 512, 1024));
        assertEquals(2, ImageScale.sampleSize(512, 1025, 1024));
        assertEquals(4, ImageScale.sampleSize(4000, 3000, 1024));
        assertEquals(1, ImageScale.sampleSize(0, 0, 1024));
    }
}
