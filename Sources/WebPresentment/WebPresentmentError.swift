import MDoc

/// A failure of the Annex C answer before the documents could be judged: a stable code and a readable detail.
public typealias WebPresentmentError = ResponseFailure
