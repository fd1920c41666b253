// Proactive's focus reporter, inside GNOME Shell: Mutter tells no client which window has the focus, so this tells
// the session bus. `proactive gnome-extension install` wraps this class for the running Shell's extension format
// (GNOME 42-44: init(); 45 and later: an ES module) and enables it; GNOME on Wayland loads it at the next login.
//
// On the Shell's own bus connection (name org.gnome.Shell), object /org/proactive/Focus, interface
// org.proactive.Focus:
//   Get() -> s         the focused window as JSON: {title, wm_class, wm_class_instance, app_id, pid}, {} for none
//   Changed(s)         signal, the same JSON, each time the focus moves or the focused window's title changes
// It reads nothing else (no window contents, no input, no clipboard) and sends nothing anywhere but this signal.

const FOCUS_IFACE = `<node>
  <interface name="org.proactive.Focus">
    <method name="Get"><arg type="s" direction="out" name="window"/></method>
    <signal name="Changed"><arg type="s" name="window"/></signal>
  </interface>
</node>`;

class ProactiveFocus {
    enable() {
        this._window = null;
        this._titleId = 0;
        this._last = null;
        this._impl = Gio.DBusExportedObject.wrapJSObject(FOCUS_IFACE, this);
        this._impl.export(Gio.DBus.session, '/org/proactive/Focus');
        this._focusId = global.display.connect('notify::focus-window', () => this._follow());
        this._follow();
    }

    disable() {
        global.display.disconnect(this._focusId);
        this._watch(null);
        this._impl.unexport();
        this._impl = null;
    }

    Get() {
        return this._describe();
    }

    _describe() {
        const w = global.display.focus_window;
        if (!w)
            return '{}';
        return JSON.stringify({
            title: w.get_title() || '',
            wm_class: w.get_wm_class() || '',
            wm_class_instance: w.get_wm_class_instance() || '',
            app_id: w.get_gtk_application_id() || w.get_sandboxed_app_id() || '',
            pid: w.get_pid() > 0 ? w.get_pid() : 0,
        });
    }

    _watch(w) {
        if (this._window && this._titleId) {
            try {
                this._window.disconnect(this._titleId);
            } catch (e) {}  // the window is already gone
        }
        this._window = w;
        this._titleId = w ? w.connect('notify::title', () => this._changed()) : 0;
    }

    _follow() {
        const w = global.display.focus_window;
        if (w !== this._window)
            this._watch(w);
        this._changed();
    }

    _changed() {
        const now = this._describe();
        if (now === this._last || !this._impl)
            return;
        this._last = now;
        this._impl.emit_signal('Changed', new GLib.Variant('(s)', [now]));
    }
}
