import CSDL
import AppModel
import KeyboardCore

/// Starting `--system` mode and following where its keys go.
extension Application {
    /// System mode: `wayland` when it could start (the compositor offers its protocols), else
    /// sets the window up as an X11 keyboard that never takes the focus and starts watching
    /// the focus, or says in one line why keys cannot reach every window (`waylandFailure`:
    /// why native Wayland system mode was not used, when it was tried).
    func startSystemMode(wayland: WaylandSystemMode?, waylandFailure: String?) {
        if let wayland {
            systemMode = wayland
            if let fd = wayland.wakeWriteFD {
                sessionBus = SessionBusService(wakeFD: fd, environment: FileSystem.environment)
            }
        } else {
            do {
                systemMode = try X11SystemMode(window: screen.window.pointer)
            } catch {
                Console.error("\(Console.program): --system: \(error); keys are not sent")
            }
            if let notice = SystemModeNotice.message(videoDriver: sdl.videoDriver.description, environment: FileSystem.environment,
                                                     waylandReason: waylandFailure) {
                Console.error("\(Console.program): \(notice)")
            }
        }
        // Text input and the input method stay off: the window never has the focus.
        SDL_EventState(UInt32(SDL_TEXTINPUT.rawValue), SDL_DISABLE)
        SDL_EventState(UInt32(SDL_TEXTEDITING.rawValue), SDL_DISABLE)
        SDL_EventState(UInt32(SDL_TEXTEDITING_EXT.rawValue), SDL_DISABLE)
    }

    /// System mode: tells the session and the trace where keys go now.
    func keyTargetChanged(at time: Duration) {
        let watcher = systemMode?.focusWatcher
        if let watcher { trace.emit(.target(watcher.focusedWindow, inputMethod: watcher.inputMethodState), at: clock.now) }
        send(.keyTargetChanged(watcher?.keyTarget ?? .unavailable), at: time)
    }

    /// System mode: the focused field's context changed (issue 30), at `time`. The trace says
    /// so when what its `context` line shows changed (never for the text alone); a source that
    /// cannot tell at all says why. The session hears it too (auto-show, and the line above
    /// the keys naming the field's kind).
    func textContextChanged(at time: Duration) {
        guard let source = systemMode?.textContextSource else { return }
        if let reason = source.unavailableReason {
            trace.emit(.contextUnavailable(reason: reason), at: clock.now)
            tracedContext = .inactive
            send(.textContextUnavailable, at: time)
            return
        }
        let context = source.context
        if context.isSecure != session.document.isSecureField { send(.secureFieldChanged(context.isSecure), at: clock.now) }
        if !context.describesSameField(as: tracedContext) {
            tracedContext = context
            trace.emit(.context(context), at: clock.now)
            LatencyProbe.mark("context-traced")
        }
        // Without auto-show the session hears it too: the line above the keys names the kind.
        send(source.isFocusKnown ? .textContextChanged(context, focus: source.focusSerial) : .textContextUnknown, at: time)
    }

    /// The session bus's thread woke the loop (or the connection did): `SetVisible` goes to the
    /// session as the shell's request; gnome-session's EndSession or Stop ends the run.
    func sessionBusReported(at time: Duration) {
        guard let sessionBus else { return }
        let report = sessionBus.take()
        if let visible = report.request {
            trace.emit(.visibilityRequested(visible), at: clock.now)
            send(.visibilityRequested(visible), at: time)
        }
        if report.endRequested { running = false }
    }

    /// Types `stroke` through the platform's key sender; returns why it was not typed, if it
    /// was not (for the trace's `dropped`), and the way it went where there are several (`via`).
    func sendKeystroke(_ stroke: Keystroke) -> (dropped: String?, via: String?) {
        guard let systemMode else { return ("keys cannot be sent (not X11)", nil) }
        // Where the platform knows no window has the focus, keys would go nowhere.
        if systemMode.focusWatcher.keyTarget == .noFocusedWindow { return ("no window has focus", nil) }
        do throws(KeySendFailure) {
            return (nil, try systemMode.keySender.send(stroke, at: clock.now))
        } catch {
            return (error.description, nil)
        }
    }
}

extension Application {
    /// The longest the app waits at quit for keystrokes still queued to go out (Wayland's
    /// answers are awaited at most 250 ms each).
    static let quitKeystrokeWait: Duration = .seconds(1)

    /// Keystrokes the session handed over that still wait their turn go out before the app
    /// quits (issue 28: the trace had said `send` for them): the loop goes on reading the
    /// display server's events, and nothing else, until the sender has none left, at most
    /// `quitKeystrokeWait`; what is left then is named on stderr.
    func deliverQueuedKeystrokes() {
        guard let systemMode, systemMode.keySender.hasQueuedKeystrokes else { return }
        let sender = systemMode.keySender
        let giveUp = clock.now + Self.quitKeystrokeWait
        let waiter = systemMode.eventWaiter ?? sdlWaiter
        var event = SDL_Event()
        while sender.hasQueuedKeystrokes, clock.now < giveUp, !X11WindowLoss.windowLost {
            let now = clock.now
            sender.tick(at: now)
            guard sender.hasQueuedKeystrokes else { break }
            let due = min(sender.deadline ?? giveUp, giveUp)
            let milliseconds = max(Int32(((due - now).seconds * 1000).rounded(.up)), 1)
            guard waiter.wait(for: &event, milliseconds: milliseconds) else { continue }
            repeat {
                if translator.meanings(of: event).contains(.platformEvent) {
                    var copy = event
                    _ = systemMode.handle(&copy, at: clock.now)
                }
            } while SDL_PollEvent(&event) != 0
        }
        if sender.hasQueuedKeystrokes {
            Console.error("\(Console.program): --system: quitting with keystrokes the application did not take in "
                          + "\(Self.quitKeystrokeWait.seconds) s; they were not typed")
        }
    }
}
