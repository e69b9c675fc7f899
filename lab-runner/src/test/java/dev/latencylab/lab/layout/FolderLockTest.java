package dev.latencylab.lab.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One command at a time in a folder, on real files: a lock this JVM holds refuses a second taker and a reader, naming
 * it; a lock left by a process that is gone (here: this pid with another start time, as after a restart that reused
 * it) is reported, refused to a reader, and taken over only when asked; a lock is removed only by its owner.
 */
class FolderLockTest {

    @TempDir
    Path tmp;

    private final long me = ProcessHandle.current().pid();

    @Test
    void aHeldFolderRefusesASecondCommandAndAReaderUntilItsOwnerEnds() throws Exception {
        Path dir = tmp.resolve("sweep");
        try (FolderLock lock = FolderLock.take(dir, "sweep --name a", false)) {
            assertThat(Files.readAllLines(dir.resolve(FolderLock.NAME))).first().isEqualTo(String.valueOf(me));
            assertThatThrownBy(() -> FolderLock.take(dir, "sweep --name a", true)).as("never taken from a live owner, even when asked")
                    .isInstanceOf(FolderLock.FolderBusyException.class)
                    .hasMessage("%s is in use by another ./lab command (pid %d: sweep --name a): wait for it to end, or give another --name", dir, me);
            assertThatThrownBy(() -> FolderLock.refuseIfLocked(dir)).isInstanceOf(FolderLock.FolderBusyException.class)
                    .hasMessage("%s is being written by ./lab pid %d (sweep --name a): read it once that command has ended", dir, me);
            assertThat(FolderLock.leftBehind(tmp)).as("its owner runs: nothing left behind").isEmpty();
        }
        assertThat(dir.resolve(FolderLock.NAME)).doesNotExist();
        assertThat(dir).isEmptyDirectory();
        FolderLock.refuseIfLocked(dir);
        FolderLock.take(dir, "sweep --name a", false).close();
    }

    @Test
    void aLockLeftByAProcessThatIsGoneIsSaidAndTakenOverOnlyWhenAsked() throws Exception {
        Path dir = tmp.resolve("killed");
        Files.createDirectories(dir);
        Path file = dir.resolve(FolderLock.NAME);
        Files.writeString(file, me + "\n2001-01-01T00:00:00Z\ncapacity --name killed\n");

        assertThatThrownBy(() -> FolderLock.take(dir, "capacity --name killed", false)).isInstanceOf(FolderLock.FolderBusyException.class)
                .hasMessageStartingWith("%s was left locked by ./lab pid %d (capacity --name killed), which is no longer running".formatted(dir, me))
                .hasMessageEndingWith("run again with --take-over to use the folder");
        assertThatThrownBy(() -> FolderLock.refuseIfLocked(dir)).isInstanceOf(FolderLock.FolderBusyException.class)
                .hasMessageContaining("which was killed while it ran there: its files may be incomplete").hasMessageEndingWith("remove " + file);
        assertThat(FolderLock.leftBehind(tmp)).containsExactly("note: %s was left by ./lab pid %d (capacity --name killed), which was killed "
                .formatted(dir, me) + "while it ran there: its files may be incomplete");

        try (FolderLock taken = FolderLock.take(dir, "capacity --name killed --take-over", true)) {
            assertThat(Files.readString(file)).endsWith("\ncapacity --name killed --take-over\n").doesNotContain("2001-01-01");
            assertThat(FolderLock.leftBehind(tmp)).isEmpty();
        }
        assertThat(file).doesNotExist();
        try (java.util.stream.Stream<Path> left = Files.list(dir)) {
            assertThat(left).as("no partial file of the lock's").isEmpty();
        }
    }

    @Test
    void aLockIsRemovedOnlyByItsOwner() throws Exception {
        Path dir = tmp.resolve("shared");
        FolderLock mine = FolderLock.take(dir, "run", false);
        Path file = dir.resolve(FolderLock.NAME);
        String another = "1\n\nsweep --take-over\n";
        Files.writeString(file, another); // taken over by another command since
        mine.close();
        assertThat(Files.readString(file)).as("the other command's lock stays").isEqualTo(another);
        Files.delete(file);
        mine.close(); // already gone: nothing to do, no error
    }
}
