/** What a run says of itself each second while it lasts (live.jsonl beside its result file), for ./lab's live view. */
package dev.latencylab.load.live;
