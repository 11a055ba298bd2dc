/*
 * pktnames.h — minecraft-data names of 1.20.1 packets, for reports.
 *
 * Invariant: the names come from the same generated ids the codecs use
 * (src/data/packet_ids.h), never from a hand-kept list of numbers.
 */
#ifndef MCB_PKTNAMES_H
#define MCB_PKTNAMES_H

/* Protocol states as mcbench counts them (index into its traffic tables). */
enum { PKTN_HANDSHAKE, PKTN_LOGIN, PKTN_PLAY, PKTN_STATES };

/* Name of packet `id` in `state`; dir_in: 1 clientbound, 0 serverbound. Never NULL. */
const char *pkt_name(int state, int dir_in, int id);

#endif
