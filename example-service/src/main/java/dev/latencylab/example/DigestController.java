package dev.latencylab.example;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * CPU-bound work and nothing else: SHA-256 applied rounds times to its own output. Its cost grows with rounds and no
 * pool of the service decides it: the machine's cores do.
 */
@RestController
class DigestController {

    static final int MAX_ROUNDS = 10_000_000;

    @GetMapping("/digest")
    String digest(@RequestParam(defaultValue = "20000") int rounds) {
        if (rounds < 1 || rounds > MAX_ROUNDS) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "rounds: give 1 to " + MAX_ROUNDS);
        }
        byte[] value = "example-service".getBytes(StandardCharsets.UTF_8);
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (int i = 0; i < rounds; i++) {
                value = sha.digest(value);
            }
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        return HexFormat.of().formatHex(value);
    }
}
