import CShim
import Glibc

/// epoll's flags under clean names: glibc declares them as an enum Swift imports with a
/// different type than `epoll_event.events`.
enum Epoll {
    static let input = EPOLLIN.rawValue
    static let output = EPOLLOUT.rawValue
    static let error = EPOLLERR.rawValue
    static let hangUp = EPOLLHUP.rawValue
    static let readHangUp = EPOLLRDHUP.rawValue

    static func add(_ epfd: Int32, _ fd: Int32, events: UInt32, data: UInt64) throws(SystemCallError) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = data
        _ = try checked("epoll_ctl(ADD)") { epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event) }
    }

    /// Changing interest of a registered fd; failure means the fd is gone, which the caller
    /// learns on its next I/O anyway.
    @discardableResult
    static func modify(_ epfd: Int32, _ fd: Int32, events: UInt32, data: UInt64) -> Bool {
        var event = epoll_event()
        event.events = events
        event.data.u64 = data
        return epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &event) == 0
    }
}
