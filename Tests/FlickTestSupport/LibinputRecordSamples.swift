/// `libinput record` files for the tests: a touchpad's two-finger scroll, and devices to list
/// around it as `libinput record --all` does.
public enum LibinputRecordSamples {
    /// A two-finger scroll down on a 2-slot clickpad, as `libinput record` (1.2x) writes it:
    /// fingers land 16 mm apart pressing 60 (fingers by libinput's default thresholds, 30:25 on
    /// 0...255, which its quirks leave), move 12 mm down in 6 frames 12 ms apart, the left one
    /// lifts 11 ms before the right one.
    public static let twoFingerScroll = """
        # libinput record
        version: 1
        ndevices: 1
        libinput:
          version: "1.25.0"
          git: "unknown"
        system:
          os: "fedora:40"
          kernel: "6.8.9-300.fc40.x86_64"
          dmi: "dmi:bvnLENOVO:bvrGJET72WW(2.22):bd02/21/2014:svnLENOVO:pn20AN006VUS:pvrThinkPadT440s:"
        devices:
        - node: /dev/input/event5
          evdev:
            # Name: SynPS/2 Synaptics TouchPad
            # ID: bus 0x0011 vendor 0x0002 product 0x0007 version 0x01b1
            # Size in mm: 97x66
            # Supported Events:
            # Event type 0 (EV_SYN)
            # Event type 1 (EV_KEY)
            #   Event code 272 (BTN_LEFT)
            #   Event code 330 (BTN_TOUCH)
            # Event type 3 (EV_ABS)
            #   Event code 0 (ABS_X)
            #       Value        2903
            #       Min          1266
            #       Max          5676
            #       Fuzz            0
            #       Flat            0
            #       Resolution     45
            # Properties:
            #    Property 0 (INPUT_PROP_POINTER)
            #    Property 2 (INPUT_PROP_BUTTONPAD)
            name: "SynPS/2 Synaptics TouchPad"
            id: [17, 2, 7, 433]
            codes:
              0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN
              1: [272, 325, 328, 330, 333, 334, 335] # EV_KEY
              3: [0, 1, 24, 28, 47, 53, 54, 57, 58] # EV_ABS
            absinfo:
              0: [1266, 5676, 0, 0, 45]
              1: [1096, 4758, 0, 0, 68]
              24: [0, 255, 0, 0, 0]
              28: [0, 15, 0, 0, 0]
              47: [0, 1, 0, 0, 0]
              53: [1266, 5676, 0, 0, 45]
              54: [1096, 4758, 0, 0, 68]
              57: [0, 65535, 0, 0, 0]
              58: [0, 255, 0, 0, 0]
            properties: [0, 2]
          hid: [
            0x05, 0x01, 0x09, 0x02, 0xa1, 0x01,
            0x09, 0x01, 0xa1, 0x00
          ]
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_TOUCHPAD=1
            - LIBINPUT_DEVICE_GROUP=11/2/7:isa0060/serio1
          quirks:
          - ModelLenovoT450Touchpad=1
          libinput:
            size: [97, 66]
            capabilities: [pointer, gesture]
          events:
          # Current time is 14:02:11
          - evdev:
            - [  0,      0,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
            - [  0,      0,   3,  57,     101] # EV_ABS / ABS_MT_TRACKING_ID        101
            - [  0,      0,   3,  53,    3000] # EV_ABS / ABS_MT_POSITION_X       3000 (+3000)
            - [  0,      0,   3,  54,    2600] # EV_ABS / ABS_MT_POSITION_Y       2600 (+2600)
            - [  0,      0,   3,  58,      60] # EV_ABS / ABS_MT_PRESSURE           60 (+60)
            - [  0,      0,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
            - [  0,      0,   3,  57,     102] # EV_ABS / ABS_MT_TRACKING_ID        102
            - [  0,      0,   3,  53,    3720] # EV_ABS / ABS_MT_POSITION_X       3720 (+3720)
            - [  0,      0,   3,  54,    2610] # EV_ABS / ABS_MT_POSITION_Y       2610 (+2610)
            - [  0,      0,   3,  58,      60] # EV_ABS / ABS_MT_PRESSURE           60 (+60)
            - [  0,      0,   1, 330,       1] # EV_KEY / BTN_TOUCH                 1
            - [  0,      0,   1, 333,       1] # EV_KEY / BTN_TOOL_DOUBLETAP        1
            - [  0,      0,   3,   0,    3000] # EV_ABS / ABS_X                  3000 (+3000)
            - [  0,      0,   3,   1,    2600] # EV_ABS / ABS_Y                  2600 (+2600)
            - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
          - libinput:
            - {time: 0.000000, type: GESTURE_HOLD_BEGIN, nfingers: 2}
          - evdev:
            - [  0,  12034,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
            - [  0,  12034,   3,  54,    2736] # EV_ABS / ABS_MT_POSITION_Y       2736 (+136)
            - [  0,  12034,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
            - [  0,  12034,   3,  54,    2746] # EV_ABS / ABS_MT_POSITION_Y       2746 (+136)
            - [  0,  12034,   3,   1,    2736] # EV_ABS / ABS_Y                  2736 (+136)
            - [  0,  12034,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
          - evdev:
            - [  0,  24051,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
            - [  0,  24051,   3,  54,    2872] # EV_ABS / ABS_MT_POSITION_Y       2872 (+136)
            - [  0,  24051,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
            - [  0,  24051,   3,  54,    2882] # EV_ABS / ABS_MT_POSITION_Y       2882 (+136)
            - [  0,  24051,   3,   1,    2872] # EV_ABS / ABS_Y                  2872 (+136)
            - [  0,  24051,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
          - evdev:
            - [  0,  36070,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
            - [  0,  36070,   3,  54,    3008] # EV_ABS / ABS_MT_POSITION_Y       3008 (+136)
            - [  0,  36070,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
            - [  0,  36070,   3,  54,    3018] # EV_ABS / ABS_MT_POSITION_Y       3018 (+136)
            - [  0,  36070,   3,   1,    3008] # EV_ABS / ABS_Y                  3008 (+136)
            - [  0,  36070,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
          - evdev:
            - [  0,  48088,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
            - [  0,  48088,   3,  54,    3144] # EV_ABS / ABS_MT_POSITION_Y       3144 (+136)
            - [  0,  48088,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
            - [  0,  48088,   3,  54,    3154] # EV_ABS / ABS_MT_POSITION_Y       3154 (+136)
            - [  0,  48088,   3,   1,    3144] # EV_ABS / ABS_Y                  3144 (+136)
            - [  0,  48088,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
          - evdev:
            - [  0,  60101,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
            - [  0,  60101,   3,  54,    3280] # EV_ABS / ABS_MT_POSITION_Y       3280 (+136)
            - [  0,  60101,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
            - [  0,  60101,   3,  54,    3290] # EV_ABS / ABS_MT_POSITION_Y       3290 (+136)
            - [  0,  60101,   3,   1,    3280] # EV_ABS / ABS_Y                  3280 (+136)
            - [  0,  60101,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
          - evdev:
            - [  0,  72120,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
            - [  0,  72120,   3,  54,    3416] # EV_ABS / ABS_MT_POSITION_Y       3416 (+136)
            - [  0,  72120,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
            - [  0,  72120,   3,  54,    3426] # EV_ABS / ABS_MT_POSITION_Y       3426 (+136)
            - [  0,  72120,   3,   1,    3416] # EV_ABS / ABS_Y                  3416 (+136)
            - [  0,  72120,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
          - evdev:
            - [  0,  84133,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
            - [  0,  84133,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID         -1
            - [  0,  84133,   1, 325,       1] # EV_KEY / BTN_TOOL_FINGER           1
            - [  0,  84133,   1, 333,       0] # EV_KEY / BTN_TOOL_DOUBLETAP        0
            - [  0,  84133,   3,   0,    3720] # EV_ABS / ABS_X                  3720 (+720)
            - [  0,  84133,   3,   1,    3426] # EV_ABS / ABS_Y                  3426 (+10)
            - [  0,  84133,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
          - evdev:
            - [  0,  95140,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
            - [  0,  95140,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID         -1
            - [  0,  95140,   1, 330,       0] # EV_KEY / BTN_TOUCH                 0
            - [  0,  95140,   1, 325,       0] # EV_KEY / BTN_TOOL_FINGER           0
            - [  0,  95140,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +11ms
                                               # Touch device in neutral state

        """

    /// A keyboard as `libinput record --all` lists it, with a key press of its own.
    public static let keyboard = """
        - node: /dev/input/event3
          evdev:
            # Name: AT Translated Set 2 keyboard
            name: "AT Translated Set 2 keyboard"
            id: [17, 1, 1, 43841]
            codes:
              0: [0, 1, 4, 17, 20] # EV_SYN
              1: [1, 2, 3, 30, 31, 32] # EV_KEY
              4: [4] # EV_MSC
            properties: []
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_KEY=1
            - ID_INPUT_KEYBOARD=1
          events:
          - evdev:
            - [  0,   5000,   4,   4,      30] # EV_MSC / MSC_SCAN                30 (obfuscated)
            - [  0,   5000,   1,  30,       1] # EV_KEY / KEY_A                    1 (obfuscated)
            - [  0,   5000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +5ms

        """

    /// A touchscreen without a resolution, its one touch at 0.2 s.
    public static let touchscreen = """
        - node: /dev/input/event9
          evdev:
            name: "ELAN Touchscreen"
            id: [3, 1267, 16, 256]
            codes:
              1: [330] # EV_KEY
              3: [0, 1, 47, 53, 54, 57] # EV_ABS
            absinfo:
              0: [0, 3200, 0, 0, 0]
              1: [0, 1800, 0, 0, 0]
              47: [0, 9, 0, 0, 0]
              53: [0, 3200, 0, 0, 0]
              54: [0, 1800, 0, 0, 0]
              57: [0, 65535, 0, 0, 0]
            properties: [1]
          events:
          - evdev:
            - [  0, 200000,   3,  57,       7]
            - [  0, 200000,   3,  53,     100]
            - [  0, 200000,   3,  54,     100]
            - [  0, 200000,   1, 330,       1]
            - [  0, 200000,   0,   0,       0]

        """

    /// The two-finger scroll with `devices` listed around it and `ndevices` set to `count`.
    public static func withDevices(before: [String] = [], after: [String] = [], count: Int) -> String {
        let touchpad = "- node: /dev/input/event5\n"
        let start = twoFingerScroll.range(of: touchpad)!.lowerBound
        var text = twoFingerScroll
        text.insert(contentsOf: before.joined(), at: start)
        text += after.joined()
        return text.replacingOccurrences(of: "ndevices: 1\n", with: "ndevices: \(count)\n")
    }
}
