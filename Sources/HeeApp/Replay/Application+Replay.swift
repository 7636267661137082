import CSDL
import AppModel
import KeyboardCore

/// Feeding a `--replay` file through the app: each record at its own time, through the same
/// path live events take (`handle`), in batches of wall time so a frame is drawn now and then
/// and a signal is seen between them; `--exit-when-done` lets animations end, then quits.
extension Application {
    /// How long the app may spend feeding replayed events before it draws a frame.
    static let replayBatch: Duration = .milliseconds(8)

    /// After the last replayed event, animations still running get at most this much
    /// (virtual) time to finish before `--exit-when-done` quits.
    static let replayDrain: Duration = .seconds(1)

    /// Feeds replayed events for up to `replayBatch` of wall time. Each event happens at its
    /// own recorded time relative to the first, which is time zero (the clock stands at zero
    /// from `init`), and the clock jumps to it.
    func feedReplay() {
        let budgetEnds = SDL_GetTicks64() + UInt64(Self.replayBatch.seconds * 1000)
        repeat {
            let time = replay.nextTime
            // Whatever was due before this event (a key repeat, an animation's end, the silent
            // audio device's suspension) happens first, at its own time; what is due at this
            // very time waits until every event of this time has been handled. A long gap
            // full of them counts against the batch, so a signal (SDL_QUIT) is seen between
            // them: the event then waits for the next turn.
            guard meetDeadlines(before: time, budgetEnds: budgetEnds) else { return }
            let record = replay.next()
            clock.advance(to: time)
            if record.type == .window, record.event?.carriesSize == true, let w = record.w, let h = record.h {
                SDL_SetWindowSize(screen.window.pointer, Int32(w), Int32(h))
            }
            if record.type == .textinput, let text = record.text {
                // One commit, however long: live, SDL cuts text into 31-byte events (and a
                // recording keeps them apart); a replayed line is one input, one `text` line.
                if !text.isEmpty {
                    if let recorder {
                        // `--record` keeps it as the one line it is.
                        var copy = InputRecord(t: Int((time.seconds * 1000).rounded()), type: .textinput)
                        copy.text = text
                        recorder.write(copy)
                    }
                    send(.textInput(text), at: time)
                }
            } else {
                handle(record.sdlEvent(windowID: screen.window.id), at: time, live: false, clipboard: record.clipboard)
            }
        } while running && replay.isFeeding && SDL_GetTicks64() < budgetEnds
    }

    /// After the last replayed event: lets running animations reach their end (in virtual
    /// time, at once), draws, and stops.
    func finishReplay() {
        meetDeadlines(before: clock.now + Self.replayDrain + .milliseconds(1))
        screen.needsDisplay = true
        running = false
    }

    /// A live event that arrives while a replay runs. The file is the replay's only input, so
    /// it is dropped (SDL's own echo of a replayed resize, a click on a real display), except
    /// a request to quit (a signal, the window's close button) or the window destroyed from
    /// outside.
    func ignoreDuringReplay(_ event: SDL_Event) {
        if EventTranslator.isQuitRequest(event) { running = false }
        if X11WindowLoss.isWindowDestroyed(by: event) { running = false }
        if SDL_EventType(event.type) == SDL_TEXTEDITING_EXT, let text = event.editExt.text { SDL_free(text) }
    }
}
