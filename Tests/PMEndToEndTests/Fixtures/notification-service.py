# A recording freedesktop notification service for the tests: owns
# org.freedesktop.Notifications on the session bus, answers Notify with
# increasing ids, and appends every call it gets to a file as one JSON object
# per line. Once it owns the name it writes "<bus address> <pid>" to the
# ready file. Needs python3-gi (GLib's Gio) only.
import json
import os
import sys

from gi.repository import Gio, GLib

record_path, ready_path = sys.argv[1], sys.argv[2]

INTERFACE = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/>
      <arg type="s" direction="out"/><arg type="s" direction="out"/>
    </method>
  </interface>
</node>
"""

last_id = 0


def record(entry):
    with open(record_path, "a", encoding="utf-8") as out:
        out.write(json.dumps(entry, ensure_ascii=False) + "\n")


def on_call(connection, sender, path, interface, method, parameters, invocation):
    global last_id
    args = parameters.unpack()
    if method == "Notify":
        last_id += 1
        record({"method": "Notify", "app": args[0], "replaces": args[1], "summary": args[3], "body": args[4],
                "timeout": args[7], "id": last_id})
        invocation.return_value(GLib.Variant("(u)", (last_id,)))
    elif method == "CloseNotification":
        record({"method": "CloseNotification", "id": args[0]})
        invocation.return_value(None)
    elif method == "GetCapabilities":
        invocation.return_value(GLib.Variant("(as)", (["body"],)))
    else:
        invocation.return_value(GLib.Variant("(ssss)", ("pm-test", "pm", "1", "1.2")))


def on_bus(connection, name):
    node = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
    connection.register_object("/org/freedesktop/Notifications", node.interfaces[0], on_call, None, None)


def on_name(connection, name):
    with open(ready_path + ".tmp", "w") as out:
        out.write(os.environ["DBUS_SESSION_BUS_ADDRESS"] + " " + str(os.getpid()))
    os.rename(ready_path + ".tmp", ready_path)


def on_lost(connection, name):
    os._exit(1)


Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.Notifications", Gio.BusNameOwnerFlags.NONE,
                 on_bus, on_name, on_lost)
# Never outlives a test that forgot it.
GLib.timeout_add_seconds(120, lambda: os._exit(0))
GLib.MainLoop().run()
