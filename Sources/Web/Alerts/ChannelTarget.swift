import Notify
import Store

/// A channel's target as this viewer may see it (`ChannelRecord.shownTarget`: never a credential).
enum ChannelTarget {
    static func shown(_ channel: ChannelRecord, to viewer: Viewer) -> String {
        channel.shownTarget(toAdmin: viewer.canChange)
    }
}
