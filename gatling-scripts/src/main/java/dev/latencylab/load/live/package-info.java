/** The run's seconds as they happen, written for ./lab's live view (LiveFeed). */
package dev.latencylab.load.live;
