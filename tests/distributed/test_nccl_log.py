"""The transport NCCL used, from its own INFO lines (wording of NCCL 2.18-2.27)."""

from advisor.distributed.nccl_log import read_transports, transports

NVLINK_NODE = """\
node1:1234:1300 [0] NCCL INFO NVLS multicast support is available on dev 0
node1:1234:1300 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read
node1:1234:1300 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] via P2P/CUMEM/read
node1:1234:1300 [0] NCCL INFO Connected all rings
"""
SOCKETS = """\
node2:77:90 [0] NCCL INFO NET/IB : No device found.
node2:77:90 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0>
node2:77:90 [0] NCCL INFO Using network Socket
node2:77:90 [0] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [send] via NET/Socket/0
node2:77:90 [0] NCCL INFO Channel 00/0 : 8[0] -> 9[1] via SHM/direct/direct
"""
IB = "n:1:2 [0] NCCL INFO Using network IB\nn:1:2 [0] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [send] via NET/IB/0/GDRDMA\n"


def test_nvlink_peer_to_peer_and_nvls():
    used, network, notes = transports(NVLINK_NODE.splitlines())
    assert used == ["P2P"] and network is None
    assert any("NVLS" in n for n in notes)


def test_socket_fallback_is_named_with_its_cause():
    used, network, notes = transports(SOCKETS.splitlines())
    assert used == ["NET/Socket", "SHM"] and network == "Socket"
    assert "no InfiniBand device found by NCCL" in notes


def test_infiniband_with_gpudirect():
    assert transports(IB.splitlines())[:2] == (["NET/IB"], "IB")


def test_no_addresses_survive_parsing():
    used, network, notes = transports(SOCKETS.splitlines())
    assert "10.0.0.2" not in repr((used, network, notes)) and "eth0" not in repr((used, network, notes))


def test_reading_the_rank_files(tmp_path):
    (tmp_path / "nccl-rank3.4242.log").write_text(IB)
    used, network, _ = read_transports(tmp_path, 3)
    assert used == ["NET/IB"] and network == "IB"
    missing_used, _, _ = read_transports(tmp_path, 4)
    assert "no INFO output" in missing_used.unavailable
    user_owned, _, _ = read_transports(None, 3)
    assert "NCCL_DEBUG_FILE" in user_owned.unavailable
