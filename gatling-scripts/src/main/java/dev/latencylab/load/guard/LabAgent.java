package dev.latencylab.load.guard;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.Instrumentation;
import java.net.SocketAddress;

import io.netty.channel.ChannelPromise;
import io.netty.handler.ssl.SslHandler;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;

/**
 * The Java agent of Gatling's JVM (-javaagent: this module's jar, named in the launch file). Netty makes every
 * connection Gatling's HTTP client opens, over any transport, through its pipeline's head: a connection to another
 * host is failed there, before any byte is sent, whatever the simulation's source said or built at run time. The same
 * for ALPN: Netty's SslHandler knows what each handshake agreed on.
 */
public final class LabAgent {

    private LabAgent() {
    }

    public static void premain(String arguments, Instrumentation instrumentation) {
        // without it Byte Buddy reaches for sun.misc.Unsafe, which JDK 24+ warns of on the console
        System.setProperty("net.bytebuddy.safe", "true");
        // Each advice described here, before any transformation: described inside one (Byte Buddy reads an advice
        // method's parameter types by reflection), a type the class being defined names would be loaded in the middle of
        // its own definition, and Netty's SslHandler was then defined twice (a LinkageError on each TLS connection, every
        // request timed out; seen in CI with HTTP/2). And no advice names the class it is inlined into.
        AsmVisitorWrapper connect = Advice.to(Connect.class).on(named("connect").and(takesArguments(4)));
        AsmVisitorWrapper handshake = Advice.to(Handshake.class).on(named("setHandshakeSuccess"));
        AsmVisitorWrapper noVersionCheck = Advice.to(NoVersionCheck.class).on(named("displayVersionWarning"));
        new AgentBuilder.Default().disableClassFormatChanges()
                // an AOT cache loads its classes before the agent starts: those are retransformed
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.Listener.StreamWriting.toSystemError().withErrorsOnly())
                .ignore(not(nameStartsWith("io.netty.channel.DefaultChannelPipeline").or(named("io.netty.handler.ssl.SslHandler"))
                        .or(named("io.gatling.app.Runner"))))
                .type(named("io.netty.channel.DefaultChannelPipeline$HeadContext"))
                .transform((builder, type, loader, module, domain) -> builder.visit(connect))
                .type(named("io.netty.handler.ssl.SslHandler"))
                .transform((builder, type, loader, module, domain) -> builder.visit(handshake))
                .type(named("io.gatling.app.Runner"))
                .transform((builder, type, loader, module, domain) -> builder.visit(noVersionCheck))
                .installOn(instrumentation);
    }

    /** Inlined at the start of the pipeline head's connect: another host's connection fails and the connect is skipped. */
    static final class Connect {

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.Argument(1) SocketAddress remote, @Advice.Argument(3) ChannelPromise promise) {
            java.net.ConnectException refused = CheckedHost.refusal(remote);
            if (refused != null) {
                promise.setFailure(refused);
                return true;
            }
            return false;
        }
    }

    /** Inlined at the end of a handshake's success: the protocol ALPN agreed on (none: HTTP/1.1). */
    static final class Handshake {

        @Advice.OnMethodExit
        static void exit(@Advice.This Object handler, @Advice.Return boolean now) {
            if (now) {
                Negotiated.count(((SslHandler) handler).applicationProtocol());
            }
        }
    }

    /** Gatling asks Maven Central for its latest release and prints it: a call to a host no run asked for. */
    static final class NoVersionCheck {

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter() {
            return true;
        }
    }
}
